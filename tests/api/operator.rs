//! The operator's tenant API: create, list, get, patch, validation.

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn tenants_are_created_with_plan_defaults_and_two_keys() {
    let app = spawn_app().await;
    let r = app
        .call("POST", "/admin/v1/tenants", Some(ADMIN), Some(json!({"name": "Acme"})))
        .await
        .expect(201, None);
    let d = r.data();
    assert_eq!(d["name"], "Acme");
    assert_eq!(d["plan"], "trial");
    assert_eq!(d["status"], "active");
    assert_eq!(d["subscription_active"], false);
    assert_eq!(d["created_at"], "2026-11-22T12:00:00.000Z");
    assert_eq!(d["trial_ends_at"], "2026-12-06T12:00:00.000Z");
    assert_eq!(d["new_contact_daily_limit"], 20);
    assert_eq!(d["monthly_call_limit"], 50_000);
    assert_eq!(
        d["quiet_hours"],
        json!({"enabled": true, "start": "21:00", "end": "08:00", "timezone": null})
    );
    assert_eq!(d["usage"], json!({"api_calls_this_month": 0, "new_contacts_today": 0}));
    assert!(d["keys"]["live"]["key"].as_str().unwrap().starts_with("svc_live_"));
    assert!(d["keys"]["test"]["key"].as_str().unwrap().starts_with("svc_test_"));

    for (plan, contacts, calls) in [
        ("starter", json!(50), json!(50_000)),
        ("growth", json!(200), json!(200_000)),
        ("scale", json!(1000), json!(null)),
    ] {
        let t = app.create_tenant(plan).await;
        assert_eq!(t.record["plan"], plan);
        assert_eq!(t.record["new_contact_daily_limit"], contacts);
        assert_eq!(t.record["monthly_call_limit"], calls);
    }
    for bad in [
        json!({"name": ""}),
        json!({"name": "x", "plan": "gold"}),
        json!({}),
        json!({"name": "x", "extra": 1}),
    ] {
        app.call("POST", "/admin/v1/tenants", Some(ADMIN), Some(bad))
            .await
            .expect(400, Some("VALIDATION_ERROR"));
    }
}

#[actix_web::test]
async fn tenants_list_pages_and_get_shows_usage() {
    let app = spawn_app().await;
    let ids: Vec<String> = {
        let mut v = vec![];
        for _ in 0..3 {
            v.push(app.create_tenant("starter").await.id);
        }
        v
    };
    let r = app.call("GET", "/admin/v1/tenants?limit=2", Some(ADMIN), None).await.expect(200, None);
    let first: Vec<_> =
        r.data().as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(first, ids[..2]);
    let cursor = r.body["next_cursor"].as_str().unwrap().to_owned();
    let r = app
        .call("GET", &format!("/admin/v1/tenants?limit=2&after={cursor}"), Some(ADMIN), None)
        .await
        .expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 1);
    assert_eq!(r.data()[0]["id"], ids[2].as_str());
    assert_eq!(r.body["next_cursor"], serde_json::Value::Null);
    assert!(r.data()[0]["usage"].is_object());

    app.get_tenant("01ARZ3NDEKTSV4RRFFQ69G5FAV").await.expect(404, Some("NOT_FOUND"));
    app.get_tenant("nope").await.expect(404, Some("NOT_FOUND"));
    app.patch_tenant("01ARZ3NDEKTSV4RRFFQ69G5FAV", json!({"plan": "scale"}))
        .await
        .expect(404, Some("NOT_FOUND"));
}

#[actix_web::test]
async fn patch_changes_limits_and_quiet_hours_and_validates() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    let r = app
        .patch_tenant(
            &t.id,
            json!({
                "plan": "growth",
                "new_contact_daily_limit": 5,
                "quiet_hours": {"enabled": true, "start": "22:30", "end": "07:00", "timezone": "Europe/Paris"}
            }),
        )
        .await
        .expect(200, None);
    let d = r.data();
    assert_eq!(d["plan"], "growth");
    assert_eq!(d["new_contact_daily_limit"], 5);
    assert_eq!(d["monthly_call_limit"], 200_000);
    assert_eq!(d["quiet_hours"]["start"], "22:30");
    assert_eq!(d["quiet_hours"]["timezone"], "Europe/Paris");
    let r = app.patch_tenant(&t.id, json!({"new_contact_daily_limit": null})).await.expect(200, None);
    assert_eq!(r.data()["new_contact_daily_limit"], 200);
    assert_eq!(r.data()["quiet_hours"]["start"], "22:30", "untouched fields stay");
    // A PATCH of the window changes only the fields it names.
    let r = app.patch_tenant(&t.id, json!({"quiet_hours": {"enabled": false}})).await.expect(200, None);
    let q = &r.data()["quiet_hours"];
    assert_eq!(
        (q["enabled"].as_bool(), q["start"].as_str(), q["end"].as_str()),
        (Some(false), Some("22:30"), Some("07:00"))
    );
    assert_eq!(q["timezone"], "Europe/Paris");
    let r = app
        .patch_tenant(&t.id, json!({"quiet_hours": {"enabled": true, "timezone": null}}))
        .await
        .expect(200, None);
    assert_eq!(
        (r.data()["quiet_hours"]["enabled"].as_bool(), r.data()["quiet_hours"]["timezone"].is_null()),
        (Some(true), true)
    );
    // The merged window is what is checked: an end equal to the kept start is refused.
    let r = app
        .patch_tenant(&t.id, json!({"quiet_hours": {"end": "22:30"}}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().contains("quiet_hours.end"), "{}", r.body);

    for (bad, field) in [
        (json!({"quiet_hours": {"enabled": true, "start": "25:00", "end": "08:00"}}), "quiet_hours.start"),
        (json!({"quiet_hours": {"enabled": true, "start": "21:00", "end": "8am"}}), "quiet_hours.end"),
        (
            json!({"quiet_hours": {"enabled": true, "start": "21:00", "end": "08:00", "timezone": "Mars/Base"}}),
            "quiet_hours.timezone",
        ),
        (json!({"status": "paused"}), "status"),
        (json!({"monthly_call_limit": -1}), "monthly_call_limit"),
        (json!({"trial_ends_at": "tomorrow"}), "trial_ends_at"),
        (json!({"plan": "growth", "colour": 1}), "colour"),
    ] {
        let r = app.patch_tenant(&t.id, bad.clone()).await.expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().contains(field), "{bad}: {}", r.body);
    }
    // Nothing of a refused patch was applied.
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["status"], "active");
    assert_eq!(v.data()["plan"], "growth");
}
