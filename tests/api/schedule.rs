//! Quiet hours and scheduled sends, by the manual clock; held messages survive a restart.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::*;

/// 07:00 UTC is 23:00 in Los Angeles (PST), 02:00 in New York, 07:00 in London, 16:00 in Tokyo.
const LATE_IN_LA: &str = "2026-11-23T07:00:00Z";

async fn held(app: &TestApp, key: &str, to: &str) -> Value {
    let r = app.send(key, json!({"to": to, "body": "hi"})).await.expect(202, None);
    r.data().clone()
}

#[actix_web::test]
async fn a_recipient_at_23_local_is_held_until_8_local() {
    let app = spawn_app_at(LATE_IN_LA).await;
    let t = app.create_tenant_default("starter").await;
    app.sim_phone(&t.id, "+14155550999", 5).await;

    let la = held(&app, &t.live, "+14155550100").await;
    assert_eq!(la["status"], "queued");
    assert_eq!(la["scheduled_at"], "2026-11-23T16:00:00.000Z", "08:00 PST");
    assert_eq!(la["notice"], "QUIET_HOURS");
    let ny = held(&app, &t.live, "+12125550100").await;
    assert_eq!(ny["scheduled_at"], "2026-11-23T13:00:00.000Z", "08:00 EST");
    let london = held(&app, &t.live, "+447700900123").await;
    assert_eq!(london["scheduled_at"], "2026-11-23T08:00:00.000Z", "by calling code");
    // A contact's own zone wins over the number's: 16:00 in Tokyo is not quiet.
    app.call(
        "POST",
        "/v1/contacts",
        Some(&t.live),
        Some(json!({"phone": "+14155550101", "timezone": "Asia/Tokyo"})),
    )
    .await
    .expect(201, None);
    let tokyo = app.send(&t.live, json!({"to": "+14155550101", "body": "hi"})).await.expect(202, None);
    assert!(tokyo.data().get("scheduled_at").is_none() && tokyo.data().get("notice").is_none());
    app.wait_status(&t.live, tokyo.data()["message_id"].as_str().unwrap(), "delivered").await;
    // Test keys are held too.
    let test = held(&app, &t.test, "+14155550100").await;
    assert_eq!(test["notice"], "QUIET_HOURS");

    let la_id = la["message_id"].as_str().unwrap();
    let m = app.message(&t.live, la_id).await;
    assert_eq!(m["status"], "queued");
    assert_eq!(m["scheduled_at"], "2026-11-23T16:00:00.000Z");
    // London goes at 08:00 UTC; LA still waits.
    app.clock.set("2026-11-23T08:00:00Z".parse().unwrap());
    app.wait_status(&t.live, london["message_id"].as_str().unwrap(), "delivered").await;
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.message(&t.live, la_id).await["status"], "queued");
    app.clock.set("2026-11-23T16:00:00Z".parse().unwrap());
    let m = app.wait_status(&t.live, la_id, "delivered").await;
    assert_eq!(m["sent_at"], "2026-11-23T16:00:00.000Z");
    app.wait_status(&t.test, test["message_id"].as_str().unwrap(), "delivered").await;
    app.wait_status(&t.live, ny["message_id"].as_str().unwrap(), "delivered").await;
}

#[actix_web::test]
async fn operators_set_the_window_or_turn_it_off() {
    let app = spawn_app_at(LATE_IN_LA).await;
    let t = app.create_tenant_default("starter").await;
    app.sim_phone(&t.id, "+14155550999", 5).await;
    app.patch_tenant(&t.id, json!({"quiet_hours": {"enabled": false, "start": "21:00", "end": "08:00"}}))
        .await
        .expect(200, None);
    let r = app.send(&t.live, json!({"to": "+14155550100", "body": "x"})).await.expect(202, None);
    assert!(r.data().get("scheduled_at").is_none());
    // 22:30–23:30 local only: 23:00 LA is inside, released at 23:30 LA.
    app.patch_tenant(&t.id, json!({"quiet_hours": {"enabled": true, "start": "22:30", "end": "23:30"}}))
        .await
        .expect(200, None);
    let r = app.send(&t.live, json!({"to": "+14155550100", "body": "x"})).await.expect(202, None);
    assert_eq!(r.data()["scheduled_at"], "2026-11-23T07:30:00.000Z");
    // Unknown numbers use the window's fallback zone (here Tokyo: 16:00, outside).
    app.patch_tenant(
        &t.id,
        json!({"quiet_hours": {"enabled": true, "start": "21:00", "end": "08:00", "timezone": "Asia/Tokyo"}}),
    )
    .await
    .expect(200, None);
    let r = app.send(&t.live, json!({"to": "+9991234567", "body": "x"})).await.expect(202, None);
    assert!(r.data().get("scheduled_at").is_none(), "{}", r.body);
}

#[actix_web::test]
async fn scheduled_sends_wait_for_send_at_and_can_be_cancelled() {
    let app = spawn_app_at("2026-11-23T20:00:00Z").await; // noon in LA
    let t = app.create_tenant_default("starter").await;
    app.sim_phone(&t.id, "+14155550999", 5).await;
    let r = app
        .send(&t.live, json!({"to": "+14155550100", "body": "later", "send_at": "2026-11-23T21:00:00Z"}))
        .await
        .expect(202, None);
    assert_eq!(r.data()["scheduled_at"], "2026-11-23T21:00:00.000Z");
    assert!(r.data().get("notice").is_none());
    let later = r.data()["message_id"].as_str().unwrap().to_owned();
    let r = app
        .send(&t.live, json!({"to": "+14155550100", "body": "never", "send_at": "2026-11-23T21:00:00+00:00"}))
        .await
        .expect(202, None);
    let never = r.data()["message_id"].as_str().unwrap().to_owned();
    let r = app.call("DELETE", &format!("/v1/messages/{never}"), Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()["status"], "cancelled");
    // Into the recipient's quiet hours: pushed to 08:00 local with the notice.
    let r = app
        .send(&t.live, json!({"to": "+14155550100", "body": "x", "send_at": "2026-11-24T06:00:00Z"}))
        .await
        .expect(202, None);
    assert_eq!(r.data()["scheduled_at"], "2026-11-24T16:00:00.000Z");
    assert_eq!(r.data()["notice"], "QUIET_HOURS");

    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(app.message(&t.live, &later).await["status"], "queued");
    app.clock.set("2026-11-23T21:00:00Z".parse().unwrap());
    app.wait_status(&t.live, &later, "delivered").await;
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(app.message(&t.live, &never).await["status"], "cancelled", "a cancelled send stays cancelled");

    for bad in [
        "2026-11-23T19:00:00Z",
        "2026-12-24T20:00:01Z",
        "tomorrow",
        "2026-11-23 21:00",
        "2026-11-23T23:59:60Z",
    ] {
        let r = app
            .send(&t.live, json!({"to": "+14155550100", "body": "x", "send_at": bad}))
            .await
            .expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().starts_with("send_at"), "{bad}: {}", r.body);
    }
}

#[actix_web::test]
async fn held_messages_survive_a_restart_and_overdue_ones_go_at_once() {
    let app = spawn_app_at(LATE_IN_LA).await;
    let t = app.create_tenant_default("starter").await;
    app.sim_phone(&t.id, "+14155550999", 5).await;
    let la = held(&app, &t.live, "+14155550100").await;
    let ny = held(&app, &t.live, "+12125550100").await;
    let (la, ny) =
        (la["message_id"].as_str().unwrap().to_owned(), ny["message_id"].as_str().unwrap().to_owned());

    let app = app.restart().await;
    assert_eq!(app.message(&t.live, &la).await["status"], "queued");
    // Past New York's 08:00 while "down": it goes as soon as the server is back.
    app.clock.set("2026-11-23T14:00:00Z".parse().unwrap());
    let app = app.restart().await;
    app.wait_status(&t.live, &ny, "delivered").await;
    assert_eq!(app.message(&t.live, &la).await["status"], "queued");
    app.clock.set("2026-11-23T16:00:00Z".parse().unwrap());
    app.wait_status(&t.live, &la, "delivered").await;
}

/// Countries with several zones: each number is held by its own region's night, from the table
/// generated from libphonenumber. At 19:05 UTC it is 03:05 in Perth, 05:05 in Vladivostok, 22:05
/// in Moscow, afternoon in São Paulo and Manaus.
#[actix_web::test]
async fn quiet_hours_follow_the_recipients_region_in_a_country_of_several_zones() {
    let app = spawn_app_at("2026-11-22T19:05:00Z").await;
    let t = app.create_tenant_default("starter").await;
    app.sim_phone(&t.id, "+14155550999", 5).await;
    for (to, at) in [
        ("+61892345678", Some("2026-11-23T00:00:00.000Z")), // 08:00 in Perth (UTC+8)
        ("+74232123456", Some("2026-11-22T22:00:00.000Z")), // 08:00 in Vladivostok (UTC+10)
        ("+74951234567", Some("2026-11-23T05:00:00.000Z")), // 08:00 in Moscow (UTC+3)
        // +61 8 7: Adelaide or Perth, held to Perth's later 08:00.
        ("+61871234567", Some("2026-11-23T00:00:00.000Z")),
        // Placed no closer than Australia: the zone of most of its numbers, Sydney (UTC+11).
        ("+61812345678", Some("2026-11-22T21:00:00.000Z")),
        ("+5511912345678", None),
        ("+5592912345678", None),
    ] {
        let m = held(&app, &t.live, to).await;
        assert_eq!(m.get("scheduled_at").and_then(Value::as_str), at, "{to}: {m}");
    }
}
