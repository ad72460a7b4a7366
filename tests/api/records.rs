//! Templates, contacts, and sends rendered from templates.

use serde_json::{json, Value};

use crate::helpers::*;

#[actix_web::test]
async fn templates_parse_once_and_stay_unique() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let r = app
        .call(
            "POST",
            "/v1/templates",
            Some(&t.live),
            Some(json!({"name": "otp", "body": "Hi {{ name }}, code {{code}} ({{name}})"})),
        )
        .await
        .expect(201, None);
    let tpl = r.data().clone();
    assert_eq!(tpl["variables"], json!(["name", "code"]));
    assert_eq!(tpl["name"], "otp");
    let id = tpl["id"].as_str().unwrap().to_owned();

    app.call("POST", "/v1/templates", Some(&t.live), Some(json!({"name": "otp", "body": "x"})))
        .await
        .expect(409, Some("DUPLICATE_TEMPLATE"));
    for bad in ["Hi {{ name", "Hi }} x", "{{ }}", "{{ 9lives }}"] {
        let r = app
            .call("POST", "/v1/templates", Some(&t.live), Some(json!({"name": "bad", "body": bad})))
            .await
            .expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().starts_with("body"), "{bad}: {}", r.body);
    }
    let r = app
        .call("PATCH", &format!("/v1/templates/{id}"), Some(&t.live), Some(json!({"body": "Code {{code}}"})))
        .await
        .expect(200, None);
    assert_eq!(r.data()["variables"], json!(["code"]));
    assert_eq!(r.data()["name"], "otp");
    let r = app.call("GET", &format!("/v1/templates/{id}"), Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()["body"], "Code {{code}}");
    let other = app.create_tenant("starter").await;
    app.call("GET", &format!("/v1/templates/{id}"), Some(&other.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));
    // Other tenants may use the same name.
    app.call("POST", "/v1/templates", Some(&other.live), Some(json!({"name": "otp", "body": "x"})))
        .await
        .expect(201, None);
    let r = app.call("GET", "/v1/templates", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 1);
    app.call("DELETE", &format!("/v1/templates/{id}"), Some(&t.live), None).await.expect(200, None);
    app.call("GET", &format!("/v1/templates/{id}"), Some(&t.live), None).await.expect(404, Some("NOT_FOUND"));
    // The name is free again.
    app.call("POST", "/v1/templates", Some(&t.live), Some(json!({"name": "otp", "body": "y"})))
        .await
        .expect(201, None);
}

#[actix_web::test]
async fn contacts_are_unique_by_phone_and_show_opt_out() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let body = json!({"phone": "+14155550100", "name": "Ada", "timezone": "America/Los_Angeles", "attributes": {"plan": "gold"}});
    let r = app.call("POST", "/v1/contacts", Some(&t.live), Some(body.clone())).await.expect(201, None);
    let c = r.data().clone();
    let id = c["id"].as_str().unwrap().to_owned();
    assert_eq!(c["phone"], "+14155550100");
    assert_eq!(c["attributes"], json!({"plan": "gold"}));
    assert_eq!(c["opted_out"], false);

    let r = app.call("POST", "/v1/contacts", Some(&t.live), Some(json!({"phone": "+14155550100"}))).await;
    let r = r.expect(409, Some("DUPLICATE_CONTACT"));
    assert_eq!(r.body["contact_id"], id.as_str(), "the existing id, top level");

    for (bad, code) in [
        (json!({"phone": "4155550100"}), "INVALID_PHONE_NUMBER"),
        (json!({"phone": "+14155550101", "timezone": "Mars/Olympus"}), "VALIDATION_ERROR"),
        (json!({"phone": "+14155550101", "attributes": {"bad key": "x"}}), "VALIDATION_ERROR"),
        (json!({"phone": "+14155550101", "attributes": {"n": 1}}), "VALIDATION_ERROR"),
        (json!({"name": "no phone"}), "VALIDATION_ERROR"),
    ] {
        app.call("POST", "/v1/contacts", Some(&t.live), Some(bad)).await.expect(400, Some(code));
    }

    let r = app.call("GET", "/v1/contacts?phone=%2B14155550100", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()[0]["id"], id.as_str());
    let r = app
        .call(
            "PATCH",
            &format!("/v1/contacts/{id}"),
            Some(&t.live),
            Some(json!({"name": null, "attributes": {"plan": "silver"}})),
        )
        .await
        .expect(200, None);
    assert_eq!(r.data()["name"], Value::Null);
    assert_eq!(r.data()["timezone"], "America/Los_Angeles");
    assert_eq!(r.data()["attributes"]["plan"], "silver");

    let other = app.create_tenant("starter").await;
    app.call("GET", &format!("/v1/contacts/{id}"), Some(&other.live), None)
        .await
        .expect(404, Some("CONTACT_NOT_FOUND"));
    app.call("PATCH", &format!("/v1/contacts/{id}"), Some(&other.live), Some(json!({"name": "x"})))
        .await
        .expect(404, Some("CONTACT_NOT_FOUND"));
    app.call("GET", "/v1/contacts/nope", Some(&t.live), None).await.expect(404, Some("CONTACT_NOT_FOUND"));

    // STOP shows on the contact.
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    app.inbound(&token, "+14155550100", "STOP").await.expect(201, None);
    let r = app.call("GET", &format!("/v1/contacts/{id}"), Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()["opted_out"], true);

    app.call("DELETE", &format!("/v1/contacts/{id}"), Some(&t.live), None).await.expect(200, None);
    app.call("GET", &format!("/v1/contacts/{id}"), Some(&t.live), None)
        .await
        .expect(404, Some("CONTACT_NOT_FOUND"));
    app.call("POST", "/v1/contacts", Some(&t.live), Some(json!({"phone": "+14155550100"})))
        .await
        .expect(201, None);
}

#[actix_web::test]
async fn sends_render_templates_from_data_then_contact_attributes() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let r = app
        .call(
            "POST",
            "/v1/templates",
            Some(&t.live),
            Some(json!({"name": "ship", "body": "Hi {{name}}, order {{order}} ships {{day}}"})),
        )
        .await
        .expect(201, None);
    let tid = r.data()["id"].as_str().unwrap().to_owned();
    app.call(
        "POST",
        "/v1/contacts",
        Some(&t.live),
        Some(json!({"phone": "+14155550100", "attributes": {"name": "Ada", "day": "Monday"}})),
    )
    .await
    .expect(201, None);

    // By name: data wins over attributes; the rest comes from the contact.
    let r = app
        .send(
            &t.test,
            json!({"to": "+14155550100", "template": "ship", "data": {"order": 42, "day": "today"}}),
        )
        .await
        .expect(202, None);
    let m = app.message(&t.test, r.data()["message_id"].as_str().unwrap()).await;
    assert_eq!(m["body"], "Hi Ada, order 42 ships today");
    assert_eq!(m["template"], "ship");
    // By id.
    let r = app
        .send(&t.test, json!({"to": "+14155550100", "template": tid, "data": {"order": "A-1"}}))
        .await
        .expect(202, None);
    let m = app.message(&t.test, r.data()["message_id"].as_str().unwrap()).await;
    assert_eq!(m["body"], "Hi Ada, order A-1 ships Monday");

    // Every missing variable is named; no contact, no attributes.
    let r = app
        .send(&t.test, json!({"to": "+14155550199", "template": "ship", "data": {"order": 1}}))
        .await
        .expect(400, Some("MISSING_TEMPLATE_VAR"));
    let e = r.body["error"].as_str().unwrap();
    assert!(e.contains("name") && e.contains("day") && !e.contains("order"), "{e}");
    app.send(&t.test, json!({"to": "+14155550100", "template": "nope"}))
        .await
        .expect(400, Some("INVALID_TEMPLATE"));
    let other = app.create_tenant("starter").await;
    app.send(&other.test, json!({"to": "+14155550100", "template": tid}))
        .await
        .expect(400, Some("INVALID_TEMPLATE"));

    // Shape errors come first, phone before template.
    app.send(&t.test, json!({"to": "+14155550100", "template": "ship", "body": "x"}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    app.send(&t.test, json!({"to": "+14155550100"})).await.expect(400, Some("VALIDATION_ERROR"));
    app.send(&t.test, json!({"to": "+14155550100", "body": "x", "data": {}}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    app.send(&t.test, json!({"to": "+14155550100", "template": "ship", "data": {"order": {"a": 1}}}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    app.send(&t.test, json!({"to": "555", "template": "nope"}))
        .await
        .expect(400, Some("INVALID_PHONE_NUMBER"));
}

#[actix_web::test]
async fn contacts_count_as_existing_for_the_new_contact_limit() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 5).await;
    app.patch_tenant(&t.id, json!({"new_contact_daily_limit": 1})).await.expect(200, None);
    app.call("POST", "/v1/contacts", Some(&t.live), Some(json!({"phone": "+14155550100"})))
        .await
        .expect(201, None);
    app.send_ok(&t.live, "+14155550101").await; // the one new contact of the day
    app.send(&t.live, json!({"to": "+14155550102", "body": "x"}))
        .await
        .expect(429, Some("NEW_CONTACT_LIMIT"));
    app.send_ok(&t.live, "+14155550100").await; // a contact: unlimited
}

#[actix_web::test]
async fn a_template_that_would_render_huge_is_refused_at_the_limit() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    // 2,000 placeholders and a 500 KB value would make a 1 GB text.
    let body = "{{x}}".repeat(2_000);
    app.call("POST", "/v1/templates", Some(&t.live), Some(json!({"name": "amp", "body": body})))
        .await
        .expect(201, None);
    let huge = "y".repeat(500_000);
    let r = app
        .send(&t.test, json!({"to": "+14155550100", "template": "amp", "data": {"x": huge}}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    let e = r.body["error"].as_str().unwrap();
    assert!(e.contains("10000"), "the error names the limit: {e}");
    // The same template with a value that fits renders whole.
    let r = app
        .send(&t.test, json!({"to": "+14155550100", "template": "amp", "data": {"x": "ab"}}))
        .await
        .expect(202, None);
    let m = app.message(&t.test, r.data()["message_id"].as_str().unwrap()).await;
    assert_eq!(m["body"].as_str().unwrap().len(), 4_000);
}
