//! The dashboard over plain HTTP: the session cookie's flags, sign-in refusals that answer the
//! form again, a form without its CSRF token that changes nothing, and sessions that end when
//! their key is revoked or their tenant suspended. `browser.rs` drives the same pages in Chromium.

use serde_json::json;

use crate::helpers::*;

/// A client that keeps no cookies and follows no redirects, so each answer can be read as is.
fn client() -> awc::Client {
    awc::Client::builder().disable_redirects().finish()
}

/// Signs in with `key`: the answer's status, its session `Set-Cookie`, and the body.
async fn sign_in(base: &str, key: &str) -> (u16, Option<String>, String) {
    dashboard_sign_in(base, key).await
}

/// GETs a page with the session cookie `cookie` (`name=value`): status, `Location`, body.
async fn get(base: &str, path: &str, cookie: &str) -> (u16, Option<String>, String) {
    let mut r = client().get(format!("{base}{path}")).insert_header(("Cookie", cookie)).send().await.unwrap();
    let loc = r.headers().get("location").map(|v| v.to_str().unwrap().to_owned());
    let body = String::from_utf8_lossy(&r.body().await.unwrap()).into_owned();
    (r.status().as_u16(), loc, body)
}

fn session_cookie(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap().to_owned()
}

fn csrf(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a CSRF field") + "name=\"csrf\" value=\"".len();
    page[at..].split('"').next().unwrap().to_owned()
}

#[actix_web::test]
async fn sessions_are_http_only_strict_cookies_and_end_with_their_key_or_tenant() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let base = app.base.clone();

    // A wrong value: the form again, with a message; no cookie.
    let (status, cookie, body) = sign_in(&base, "svc_live_not-a-real-key").await;
    assert_eq!(status, 401);
    assert!(cookie.is_none());
    assert!(
        body.contains("That key is not valid.") && body.contains("<label for=\"key\">API key</label>"),
        "{body}"
    );

    let (status, cookie, _) = sign_in(&base, &t.live).await;
    assert_eq!(status, 303);
    let set = cookie.expect("a session cookie");
    for flag in ["HttpOnly", "SameSite=Strict", "Path=/dashboard"] {
        assert!(set.contains(flag), "{flag} in {set}");
    }
    assert!(!set.contains("Secure"), "no Secure without an https public URL: {set}");
    let c = session_cookie(&set);
    let (status, _, page) = get(&base, "/dashboard/", &c).await;
    assert_eq!(status, 200);
    assert!(page.contains("API calls this month") && page.contains("starter"), "{page}");
    // Another tenant's message is not found here; this tenant's is.
    let other = app.create_tenant("starter").await;
    let theirs =
        app.send(&other.test, json!({"to": "+14155550100", "body": "theirs"})).await.expect(202, None);
    let theirs = theirs.data()["message_id"].as_str().unwrap().to_owned();
    let (status, _, body) = get(&base, &format!("/dashboard/messages/{theirs}"), &c).await;
    assert_eq!(status, 404);
    assert!(!body.contains("theirs"), "{body}");
    let ours = app.send(&t.test, json!({"to": "+14155550100", "body": "ours"})).await.expect(202, None);
    let ours = ours.data()["message_id"].as_str().unwrap().to_owned();
    // A test message is the test key's: a live session does not find it, a test one does.
    let (status, _, body) = get(&base, &format!("/dashboard/messages/{ours}"), &c).await;
    assert_eq!(status, 404);
    assert!(!body.contains("ours"), "{body}");
    assert!(!get(&base, "/dashboard/messages", &c).await.2.contains("ours"));
    let tc = session_cookie(&sign_in(&base, &t.test).await.1.unwrap());
    let (status, _, body) = get(&base, &format!("/dashboard/messages/{ours}"), &tc).await;
    assert_eq!(status, 200);
    assert!(body.contains("ours"), "{body}");
    assert!(get(&base, "/dashboard/messages", &tc).await.2.contains("ours"));
    assert_eq!(get(&base, "/dashboard/messages/not-an-id", &c).await.0, 404);
    let (_, _, list) = get(&base, "/dashboard/messages?status=lost&to=%3Cscript%3E", &c).await;
    assert!(list.contains("&lt;script&gt;") && !list.contains("<script>"), "escaped: {list}");
    // Dashboard pages count against nothing.
    let calls = app.get_tenant(&t.id).await.data()["usage"]["api_calls_this_month"].as_u64().unwrap();
    for _ in 0..3 {
        get(&base, "/dashboard/", &c).await;
    }
    assert_eq!(app.get_tenant(&t.id).await.data()["usage"]["api_calls_this_month"].as_u64().unwrap(), calls);

    // Sign out without the CSRF token: refused, nothing changes.
    let r = client()
        .post(format!("{base}/dashboard/logout"))
        .insert_header(("Cookie", c.as_str()))
        .send_form(&[("csrf", "forged")])
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
    assert_eq!(get(&base, "/dashboard/", &c).await.0, 200, "still signed in");
    // With it: signed out, and the old cookie opens nothing.
    let token = csrf(&page);
    let r = client()
        .post(format!("{base}/dashboard/logout"))
        .insert_header(("Cookie", c.as_str()))
        .send_form(&[("csrf", token.as_str())])
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 303);
    let (status, to, _) = get(&base, "/dashboard/", &c).await;
    assert_eq!((status, to.as_deref()), (303, Some("/dashboard/login")));

    // A revoked key ends its session at once.
    let k = app.create_key(&t.live, json!({"name": "dash"})).await.expect(201, None);
    let (kid, key) =
        (k.data()["id"].as_str().unwrap().to_owned(), k.data()["key"].as_str().unwrap().to_owned());
    let c = session_cookie(&sign_in(&base, &key).await.1.unwrap());
    assert_eq!(get(&base, "/dashboard/", &c).await.0, 200);
    app.revoke_key(&t.live, &kid).await.expect(200, None);
    assert_eq!(get(&base, "/dashboard/", &c).await.1.as_deref(), Some("/dashboard/login"));
    // So does a suspended tenant; and it cannot sign in again.
    let c = session_cookie(&sign_in(&base, &t.live).await.1.unwrap());
    app.patch_tenant(&t.id, json!({"status": "suspended"})).await.expect(200, None);
    assert_eq!(get(&base, "/dashboard/", &c).await.1.as_deref(), Some("/dashboard/login"));
    let (status, _, body) = sign_in(&base, &t.live).await;
    assert_eq!(status, 401);
    assert!(body.contains("suspended"), "{body}");
    // The operator token opens the operator's side.
    let c = session_cookie(&sign_in(&base, ADMIN).await.1.unwrap());
    assert_eq!(get(&base, "/dashboard/", &c).await.1.as_deref(), Some("/dashboard/admin/tenants"));
    let (status, _, list) = get(&base, "/dashboard/admin/tenants", &c).await;
    assert_eq!(status, 200);
    assert!(list.contains(&t.id), "{list}");
    // A tenant's session does not open the operator's pages.
    let k = app.create_key(&other.live, json!({"name": "x"})).await.expect(201, None);
    let tc = session_cookie(&sign_in(&base, k.data()["key"].as_str().unwrap()).await.1.unwrap());
    assert_eq!(get(&base, "/dashboard/admin/tenants", &tc).await.1.as_deref(), Some("/dashboard/"));
}

#[actix_web::test]
async fn an_idle_session_ends_after_12_hours_and_https_makes_the_cookie_secure() {
    let app = spawn_app_configured(|s| s.public_url = Some("https://sms.example.com".into())).await;
    let t = app.create_tenant("starter").await;
    let (_, set, _) = sign_in(&app.base, &t.live).await;
    let set = set.unwrap();
    assert!(set.contains("Secure"), "{set}");
    let c = session_cookie(&set);
    app.clock.advance(std::time::Duration::from_secs(11 * 3600));
    assert_eq!(get(&app.base, "/dashboard/", &c).await.0, 200, "11 h idle: still on (and seen again)");
    app.clock.advance(std::time::Duration::from_secs(12 * 3600 + 60));
    assert_eq!(get(&app.base, "/dashboard/", &c).await.1.as_deref(), Some("/dashboard/login"));
}

#[actix_web::test]
async fn contacts_templates_and_campaigns_are_listed_for_their_tenant_only() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let other = app.create_tenant("starter").await;
    app.call(
        "POST",
        "/v1/templates",
        Some(&t.live),
        Some(json!({"name": "welcome", "body": "Hi {{ name }} <3"})),
    )
    .await
    .expect(201, None);
    app.call("POST", "/v1/contacts", Some(&t.live), Some(json!({"phone": "+14155550123", "name": "Ann"})))
        .await
        .expect(201, None);
    app.call("POST", "/v1/templates", Some(&other.live), Some(json!({"name": "theirs", "body": "x"})))
        .await
        .expect(201, None);
    app.call(
        "POST",
        "/v1/campaigns",
        Some(&t.test),
        Some(json!({"name": "spring", "body": "hello", "phones": ["+14155550124"]})),
    )
    .await
    .expect(201, None);
    let c = session_cookie(&sign_in(&app.base, &t.live).await.1.unwrap());
    let (status, _, page) = get(&app.base, "/dashboard/templates", &c).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("welcome") && page.contains("Hi {{ name }} &lt;3") && page.contains(">name<"),
        "{page}"
    );
    assert!(!page.contains("theirs"), "another tenant's template: {page}");
    let (_, _, page) = get(&app.base, "/dashboard/contacts", &c).await;
    assert!(page.contains("+14155550123") && page.contains("Ann"), "{page}");
    let (_, _, page) = get(&app.base, "/dashboard/campaigns", &c).await;
    assert!(page.contains("spring (test)") && page.contains("<td>draft</td>"), "{page}");
}

/// The Overview's chart and its table of numbers: what the page says for the hour `label`.
fn hour_row(page: &str, label: &str) -> (u64, u64, u64) {
    let at =
        page.find(&format!("<tr><td>{label}</td>")).unwrap_or_else(|| panic!("a row for {label}: {page}"));
    let cells: Vec<u64> = page[at..]
        .split("</tr>")
        .next()
        .unwrap()
        .split("<td>")
        .skip(2)
        .map(|c| c.split('<').next().unwrap().parse().unwrap())
        .collect();
    (cells[0], cells[1], cells[2])
}

#[actix_web::test]
async fn the_overview_charts_sent_delivered_and_failed_per_hour() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550123").await;
    let base = app.base.clone();
    let (_, set, _) = sign_in(&base, &t.live).await;
    let c = session_cookie(&set.unwrap());

    // 12:00 UTC: two test messages delivered, one failed.
    for to in ["+14155550100", "+14155550101", "+15005550001"] {
        let id = app.send_ok(&t.test, to).await;
        let want = if to == "+15005550001" { "failed" } else { "delivered" };
        app.wait_status(&t.test, &id, want).await;
    }
    // An agent reports `sent`, then, two hours later, `delivered`: sent once, delivered later.
    assert!(app.poll(&token, 0).await.is_empty(), "the agent is online");
    let id = app.send_ok(&t.live, "+14155550102").await;
    assert_eq!(app.poll(&token, 0).await.len(), 1);
    app.report(&token, &id, json!({"status": "sent"})).await.expect(200, None);
    app.clock.advance(std::time::Duration::from_secs(2 * 3600));
    app.report(&token, &id, json!({"status": "delivered"})).await.expect(200, None);

    let (status, _, page) = get(&base, "/dashboard/", &c).await;
    assert_eq!(status, 200);
    assert_eq!(hour_row(&page, "2026-11-22 12:00"), (3, 2, 1), "{page}");
    assert_eq!(hour_row(&page, "2026-11-22 13:00"), (0, 0, 0));
    assert_eq!(hour_row(&page, "2026-11-22 14:00"), (0, 1, 0));
    assert!(page.contains("last 24 hours: 3 sent, 3 delivered, 1 failed"), "{page}");
    assert!(page.contains("<svg role=\"img\""), "{page}");
    // Another tenant's chart is its own.
    let other = app.create_tenant("starter").await;
    let (_, set, _) = sign_in(&base, &other.live).await;
    let (_, _, theirs) = get(&base, "/dashboard/", &session_cookie(&set.unwrap())).await;
    assert!(theirs.contains("last 24 hours: 0 sent, 0 delivered, 0 failed"), "{theirs}");

    // A day on (a new session: the first one idled out), 12:00 has left the chart.
    app.clock.advance(std::time::Duration::from_secs(23 * 3600));
    let (_, set, _) = sign_in(&base, &t.live).await;
    let (_, _, page) = get(&base, "/dashboard/", &session_cookie(&set.unwrap())).await;
    assert_eq!(hour_row(&page, "2026-11-23 13:00"), (0, 0, 0));
    assert_eq!(hour_row(&page, "2026-11-22 14:00"), (0, 1, 0));
    assert!(!page.contains("<tr><td>2026-11-22 12:00</td>"), "{page}");
    assert!(page.contains("last 24 hours: 0 sent, 1 delivered, 0 failed"), "{page}");
}

#[actix_web::test]
async fn the_operator_sees_every_phone_and_the_nodes_webhook_outcomes() {
    let app = spawn_app().await;
    let (a, b) = (app.create_tenant("starter").await, app.create_tenant("growth").await);
    app.patch_tenant(&b.id, json!({"name": "bravo"})).await;
    app.sim_phone(&a.id, "+15550100001", 0).await;
    let (_, token) = app.agent_phone(&b.id, "+15550100002").await;
    app.agent_phone(&b.id, "+15550100003").await;
    assert!(app.poll(&token, 0).await.is_empty(), "the first agent is online");
    app.send_ok(&a.live, "+14155550100").await;
    let base = app.base.clone();
    let c = session_cookie(&sign_in(&base, ADMIN).await.1.unwrap());

    let (status, _, page) = get(&base, "/dashboard/admin/phones", &c).await;
    assert_eq!(status, 200);
    let row = |number: &str| {
        let at = page.find(&format!("<td>{number}</td>")).unwrap_or_else(|| panic!("{number}: {page}"));
        page[at..].split("</tr>").next().unwrap().to_owned()
    };
    assert!(
        row("+15550100001").contains("<td>online</td><td>—</td><td>—</td><td>1 of 300</td>"),
        "{}",
        row("+15550100001")
    );
    assert!(row("+15550100001").contains(&format!("/dashboard/admin/tenants/{}", a.id)));
    assert!(
        row("+15550100002")
            .contains("<td>agent</td><td>yes</td><td>online</td><td>2026-11-22 12:00:00 UTC</td>"),
        "{}",
        row("+15550100002")
    );
    assert!(row("+15550100003").contains("<td>offline</td><td>—</td><td>—</td>"), "{}", row("+15550100003"));
    // Tenant by tenant: both of b's phones after a's.
    let (p1, p2) = (page.find("+15550100001").unwrap(), page.find("+15550100002").unwrap());
    assert!(p1 < p2);
    // A tenant's session is sent to its own pages.
    let tc = session_cookie(&sign_in(&base, &a.live).await.1.unwrap());
    assert_eq!(get(&base, "/dashboard/admin/phones", &tc).await.1.as_deref(), Some("/dashboard/"));

    // The Node page counts webhook attempts by outcome.
    let rx = spawn_receiver().await;
    rx.set_status(500);
    let w = app.register_webhook(&a.live, &rx.url, json!(["message.delivered"])).await;
    let wid = w["id"].as_str().unwrap().to_owned();
    app.call("POST", &format!("/v1/webhooks/{wid}/test"), Some(&a.live), None).await.expect(202, None);
    rx.wait_for(1).await;
    let (status, _, node) = get(&base, "/dashboard/admin/node", &c).await;
    assert_eq!(status, 200);
    assert!(node.contains("<th scope=\"row\">http error</th><td>1</td>"), "{node}");
}

#[actix_web::test]
async fn a_webhooks_delivery_log_is_newest_first_with_a_cursor() {
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    let rx = spawn_receiver().await;
    let w = app
        .call(
            "POST",
            "/v1/webhooks",
            Some(&t.live),
            Some(json!({"url": rx.url, "events": ["message.delivered"]})),
        )
        .await
        .expect(201, None);
    let wid = w.data()["id"].as_str().unwrap().to_owned();
    let mut events = Vec::new();
    for _ in 0..52 {
        let r = app
            .call("POST", &format!("/v1/webhooks/{wid}/test"), Some(&t.live), None)
            .await
            .expect(202, None);
        events.push(r.data()["delivery_id"].as_str().unwrap().to_owned());
    }
    let base = app.base.clone();
    let c = session_cookie(&sign_in(&base, &t.live).await.1.unwrap());
    let (status, _, first) = get(&base, &format!("/dashboard/webhooks/{wid}"), &c).await;
    assert_eq!(status, 200);
    assert_eq!(first.matches("<section class=\"delivery\"").count(), 50);
    assert!(first.find(&events[51]).unwrap() < first.find(&events[2]).unwrap(), "newest first");
    assert!(!first.contains(&events[1]));
    let href = first
        .split("href=\"")
        .find(|s| s.contains("?before="))
        .expect("an older page")
        .split('"')
        .next()
        .unwrap();
    let (_, _, older) = get(&base, &href.replace("&amp;", "&"), &c).await;
    assert_eq!(older.matches("<section class=\"delivery\"").count(), 2);
    assert!(older.find(&events[1]).unwrap() < older.find(&events[0]).unwrap());
    assert!(!older.contains("Older deliveries"));
    // Another tenant cannot read it.
    let other = app.create_tenant("starter").await;
    let oc = session_cookie(&sign_in(&base, &other.live).await.1.unwrap());
    assert_eq!(get(&base, &format!("/dashboard/webhooks/{wid}"), &oc).await.0, 404);
}

/// The settings page saves the replies and quiet hours for a key with `manage` (an empty reply
/// is "send none"), answers a refusal with the API's words, and changes nothing for a read-only
/// key or a form without its CSRF token.
#[actix_web::test]
async fn the_settings_page_saves_for_a_manage_key_only() {
    let app = spawn_app().await;
    let t = app.create_tenant_default("starter").await;
    let base = app.base.clone();
    let post = |cookie: String, form: Vec<(&'static str, String)>| {
        let base = base.clone();
        async move {
            let mut r = client()
                .post(format!("{base}/dashboard/settings"))
                .insert_header(("Cookie", cookie))
                .send_form(&form)
                .await
                .unwrap();
            (r.status().as_u16(), String::from_utf8_lossy(&r.body().await.unwrap()).into_owned())
        }
    };
    let form = |csrf: &str, start: &str| {
        vec![
            ("csrf", csrf.to_owned()),
            ("opt_out_reply", " ".to_owned()),
            ("opt_in_reply", "Welcome back.".to_owned()),
            ("help_reply", "Acme: reply STOP to stop.".to_owned()),
            ("quiet_start", start.to_owned()),
            ("quiet_end", "07:30".to_owned()),
            ("quiet_timezone", "Europe/Paris".to_owned()),
        ]
    };
    let c = session_cookie(&sign_in(&base, &t.live).await.1.unwrap());
    let (status, _, page) = get(&base, "/dashboard/settings", &c).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("Reply START to resubscribe.") && page.contains("No number has opted out."),
        "{page}"
    );
    let token = csrf(&page);

    let (status, page) = post(c.clone(), form(&token, "22:00")).await;
    assert_eq!(status, 200);
    assert!(page.contains("Saved."), "{page}");
    let want = json!({"opt_out_reply": null, "opt_in_reply": "Welcome back.", "help_reply": "Acme: reply STOP to stop.",
        "quiet_hours": {"enabled": false, "start": "22:00", "end": "07:30", "timezone": "Europe/Paris"}});
    let settings = || app.call("GET", "/v1/settings", Some(&t.live), None);
    assert_eq!(settings().await.expect(200, None).data(), &want);

    let (status, page) = post(c.clone(), form(&token, "25:00")).await;
    assert_eq!(status, 400);
    assert!(page.contains("quiet_hours.start: must be HH:MM"), "{page}");
    assert_eq!(post(c.clone(), form("forged", "20:00")).await.0, 403);

    let reader = app.create_key(&t.live, json!({"name": "r", "scopes": ["read"]})).await.expect(201, None);
    let rc = session_cookie(&sign_in(&base, reader.data()["key"].as_str().unwrap()).await.1.unwrap());
    let (_, _, page) = get(&base, "/dashboard/settings", &rc).await;
    assert!(
        page.contains("needs a key with the") && page.contains("disabled") && !page.contains(">Save<"),
        "{page}"
    );
    let (status, page) = post(rc, form(&csrf(&page), "20:00")).await;
    assert_eq!(status, 403);
    assert!(page.contains("lacks the `manage` scope"), "{page}");
    assert_eq!(settings().await.expect(200, None).data(), &want, "nothing changed");

    app.call("POST", "/v1/opt-outs", Some(&t.live), Some(json!({"phone": "+14155550100"})))
        .await
        .expect(201, None);
    let (_, _, page) = get(&base, "/dashboard/settings", &c).await;
    assert!(page.contains("+14155550100") && page.contains("through the API"), "{page}");
}
