//! Who may call: keys, revocation, deactivation, suspension, trial expiry, tenant isolation.

use std::time::Duration;

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn missing_malformed_and_unknown_keys_are_401() {
    let app = spawn_app().await;
    app.call("GET", "/v1/api-keys", None, None).await.expect(401, Some("INVALID_API_KEY"));
    for bad in [
        "",
        "svc_live_",
        "svc_live_tooshort",
        "sk_live_0123456789abcdef0123456789abcdef",
        "svc_live_0123456789abcdef0123456789abcdef",
        "svc_live_0123456789abcdef0123456789abcde!",
    ] {
        app.call("GET", "/v1/api-keys", Some(bad), None).await.expect(401, Some("INVALID_API_KEY"));
    }
    let t = app.create_tenant("trial").await;
    let r = app
        .raw("GET", "/v1/api-keys", None, "application/json", vec![])
        .await
        .expect(401, Some("INVALID_API_KEY"));
    assert!(r.header("x-ratelimit-limit").is_none(), "unauthenticated answers carry no rate headers");
    // A Basic scheme with a valid key is still not a bearer token.
    let client = awc::Client::default();
    let res = client
        .get(format!("{}/v1/api-keys", app.base))
        .insert_header(("Authorization", format!("Basic {}", t.live)))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 401);
}

#[actix_web::test]
async fn operator_calls_need_the_operator_token() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    app.call("GET", "/admin/v1/tenants", None, None).await.expect(401, Some("INVALID_API_KEY"));
    app.call("GET", "/admin/v1/tenants", Some("wrong"), None).await.expect(401, Some("INVALID_API_KEY"));
    app.call("GET", "/admin/v1/tenants", Some(&t.live), None).await.expect(401, Some("INVALID_API_KEY"));
    app.call("GET", "/admin/v1/tenants", Some(ADMIN), None).await.expect(200, None);
}

#[actix_web::test]
async fn revocation_is_immediate_and_permanent() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    let k = app.create_key(&t.live, json!({"name": "ci"})).await.expect(201, None);
    let (id, key) =
        (k.data()["id"].as_str().unwrap().to_owned(), k.data()["key"].as_str().unwrap().to_owned());
    app.list_keys(&key).await.expect(200, None);

    let r = app.revoke_key(&t.live, &id).await.expect(200, None);
    assert_eq!(r.data()["id"], id.as_str());
    assert_eq!(r.data()["revoked"], true);

    app.list_keys(&key).await.expect(401, Some("INVALID_API_KEY"));
    let list = app.list_keys(&t.live).await.expect(200, None);
    assert!(
        list.data().as_array().unwrap().iter().all(|k| k["id"] != id.as_str()),
        "revoked keys leave the list"
    );
    app.revoke_key(&t.live, &id).await.expect(404, Some("NOT_FOUND"));
    // The operator cannot bring a revoked key back.
    app.set_key_active(&id, true).await.expect(404, Some("NOT_FOUND"));
    app.list_keys(&key).await.expect(401, Some("INVALID_API_KEY"));
}

#[actix_web::test]
async fn a_key_may_revoke_itself() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    let own = t.record["keys"]["live"]["id"].as_str().unwrap();
    app.revoke_key(&t.live, own).await.expect(200, None);
    app.list_keys(&t.live).await.expect(401, Some("INVALID_API_KEY"));
}

#[actix_web::test]
async fn other_tenants_keys_answer_404() {
    let app = spawn_app().await;
    let a = app.create_tenant("trial").await;
    let b = app.create_tenant("trial").await;
    let b_keys = app.list_keys(&b.live).await.expect(200, None);
    let b_key_id = b_keys.data()[0]["id"].as_str().unwrap().to_owned();
    app.revoke_key(&a.live, &b_key_id).await.expect(404, Some("NOT_FOUND"));
    app.revoke_key(&a.live, "not-a-ulid").await.expect(404, Some("NOT_FOUND"));
    app.revoke_key(&a.live, "01ARZ3NDEKTSV4RRFFQ69G5FAV").await.expect(404, Some("NOT_FOUND"));
    // B's key still works and A sees only its own keys.
    app.list_keys(&b.live).await.expect(200, None);
    let a_list = app.list_keys(&a.live).await.expect(200, None);
    assert!(a_list.data().as_array().unwrap().iter().all(|k| k["id"] != b_key_id.as_str()));
}

#[actix_web::test]
async fn deactivated_keys_get_403_until_reactivated() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    let k = app.create_key(&t.live, json!({"name": "ops"})).await.expect(201, None);
    let (id, key) =
        (k.data()["id"].as_str().unwrap().to_owned(), k.data()["key"].as_str().unwrap().to_owned());

    let r = app.set_key_active(&id, false).await.expect(200, None);
    assert_eq!(r.data()["active"], false);
    assert_eq!(r.data()["id"], id.as_str());
    app.list_keys(&key).await.expect(403, Some("KEY_INACTIVE"));
    app.list_keys(&t.live).await.expect(200, None);

    let r = app.set_key_active(&id, true).await.expect(200, None);
    assert_eq!(r.data()["active"], true);
    app.list_keys(&key).await.expect(200, None);
    app.set_key_active("01ARZ3NDEKTSV4RRFFQ69G5FAV", false).await.expect(404, Some("NOT_FOUND"));
}

#[actix_web::test]
async fn suspension_blocks_every_key_of_the_tenant() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let other = app.create_tenant("starter").await;
    app.patch_tenant(&t.id, json!({"status": "suspended"})).await.expect(200, None);
    app.list_keys(&t.live).await.expect(403, Some("TENANT_SUSPENDED"));
    app.list_keys(&t.test).await.expect(403, Some("TENANT_SUSPENDED"));
    app.list_keys(&other.live).await.expect(200, None);
    app.patch_tenant(&t.id, json!({"status": "active"})).await.expect(200, None);
    app.list_keys(&t.live).await.expect(200, None);
}

#[actix_web::test]
async fn a_trial_expires_after_14_days_without_a_subscription() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    assert_eq!(t.record["trial_ends_at"], "2026-12-06T12:00:00.000Z");
    app.clock.advance(Duration::from_secs(14 * 86400 - 1));
    app.list_keys(&t.live).await.expect(200, None);
    app.clock.advance(Duration::from_secs(1));
    app.list_keys(&t.live).await.expect(403, Some("TRIAL_EXPIRED"));
    app.list_keys(&t.test).await.expect(403, Some("TRIAL_EXPIRED"));

    app.patch_tenant(&t.id, json!({"subscription_active": true})).await.expect(200, None);
    app.list_keys(&t.live).await.expect(200, None);
    app.patch_tenant(&t.id, json!({"subscription_active": false})).await.expect(200, None);
    app.list_keys(&t.live).await.expect(403, Some("TRIAL_EXPIRED"));
    // Choosing a plan ends the trial.
    app.patch_tenant(&t.id, json!({"plan": "starter"})).await.expect(200, None);
    app.list_keys(&t.live).await.expect(200, None);
    // Paid plans never expire, and the operator can move a trial's end.
    let u = app.create_tenant("trial").await;
    app.patch_tenant(&u.id, json!({"trial_ends_at": "2026-01-01T00:00:00Z"})).await.expect(200, None);
    app.list_keys(&u.live).await.expect(403, Some("TRIAL_EXPIRED"));
}
