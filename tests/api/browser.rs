//! The dashboard in a real browser: Debian's Chromium, headless, driven through ChromeDriver
//! (WebDriver) by fantoccini. `.ci/run` installs both when missing and sets
//! `PIGEON_REQUIRE_BROWSER=1`, so there a missing browser fails the tests; elsewhere they are
//! skipped with one line saying what to install. Screenshots of each page are saved under
//! `target/screenshots/` to be looked at.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};

use crate::helpers::*;

/// ChromeDriver on a free port, killed when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether Chromium and ChromeDriver are installed. Without them the tests are skipped (said
/// once), unless `PIGEON_REQUIRE_BROWSER` is set: then they fail.
fn browser_available() -> bool {
    static SAID: std::sync::Once = std::sync::Once::new();
    let on_path = |name: &str| {
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
    };
    if on_path("chromedriver") && std::path::Path::new("/usr/bin/chromium").is_file() {
        return true;
    }
    assert!(
        std::env::var_os("PIGEON_REQUIRE_BROWSER").is_none(),
        "PIGEON_REQUIRE_BROWSER is set and Chromium or ChromeDriver is missing \
         (apt-get install chromium chromium-driver)"
    );
    // Past the test harness's capture (it takes only `eprintln!`), so a passing run shows it.
    SAID.call_once(|| {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "Chromium is not installed (apt-get install chromium chromium-driver): \
             the browser tests are skipped"
        );
    });
    false
}

async fn browser() -> (Driver, Client) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    // Chromium is not under test: a preloaded fake clock (libfaketime, with which the suite is
    // run at 23:55 and 00:05 UTC to prove it passes at any hour) stops it from starting.
    let child = Command::new("chromedriver")
        .env_remove("LD_PRELOAD")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver (Debian's chromium-driver; .ci/run installs it)");
    let driver = Driver(child);
    let caps = serde_json::json!({"goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--no-first-run",
        "--disable-sync", "--window-size=1100,800"]}});
    let caps: serde_json::Map<String, serde_json::Value> = serde_json::from_value(caps).unwrap();
    for _ in 0..100 {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(c) => return (driver, c),
            Err(_) => actix_web::rt::time::sleep(Duration::from_millis(100)).await,
        }
    }
    panic!("chromedriver did not answer");
}

async fn shot(c: &Client, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), c.screenshot().await.unwrap()).unwrap();
}

async fn sign_in_with(c: &Client, base: &str, value: &str) {
    c.goto(&format!("{base}/dashboard/login")).await.unwrap();
    c.find(Locator::Css("input#key")).await.unwrap().send_keys(value).await.unwrap();
    c.find(Locator::XPath("//button[text()='Sign in']")).await.unwrap().click().await.unwrap();
}

async fn text(c: &Client) -> String {
    c.find(Locator::Css("body")).await.unwrap().text().await.unwrap()
}

#[actix_web::test]
async fn sign_in_see_the_overview_and_sign_out_in_chromium() {
    if !browser_available() {
        return;
    }
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    app.sim_phone(&t.id, "+15550100001", 0).await;
    // Five hours of test traffic for the Overview's chart: more each hour, one in four failing.
    for hour in 0..5 {
        let mut last = String::new();
        for i in 0..(4 + 3 * hour) {
            let to = if i % 4 == 3 { "+15005550001" } else { "+14155550100" };
            last = app.send_ok(&t.test, to).await;
        }
        // Completions are in order: once the last is done, the hour is complete.
        while app.message(&t.test, &last).await["status"] == "queued" {
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
        }
        app.clock.advance(Duration::from_secs(3600));
    }
    let delivered = app.send_ok(&t.live, "+14155550199").await;
    app.wait_status(&t.live, &delivered, "delivered").await;
    let (_driver, c) = browser().await;

    // A wrong value: the form again, with its message.
    sign_in_with(&c, &app.base, "svc_live_wrong").await;
    c.wait().for_element(Locator::Css("p.error")).await.unwrap();
    let page = text(&c).await;
    assert!(page.contains("That key is not valid."), "{page}");
    assert!(c.find(Locator::Css("label[for=key]")).await.unwrap().text().await.unwrap() == "API key");
    shot(&c, "login-refused").await;

    // The key: the Overview, with the month's calls and the phone.
    sign_in_with(&c, &app.base, &t.live).await;
    c.wait().for_element(Locator::Css("table caption")).await.unwrap();
    assert!(c.current_url().await.unwrap().path() == "/dashboard/");
    let page = text(&c).await;
    assert!(page.contains("API calls this month") && page.contains("+15550100001"), "{page}");
    assert!(page.contains("1 of 300"), "the phone's sent today: {page}");
    let bars = c.find_all(Locator::Css("svg rect[data-series]")).await.unwrap();
    assert_eq!(bars.len(), 5 * 3 + 2, "sent, delivered and failed for five hours, then the live message");
    let title = c.find(Locator::Css("svg title#chart-title")).await.unwrap().html(true).await.unwrap();
    assert!(title.contains("40 sent, 40 delivered, 11 failed"), "{title}");
    shot(&c, "overview").await;

    // Messages, newest first: a test message that failed, then the delivered one; each opens its
    // timeline.
    let failed = app
        .send(&t.test, serde_json::json!({"to": "+15005550001", "body": "will bounce"}))
        .await
        .expect(202, None);
    let failed = failed.data()["message_id"].as_str().unwrap().to_owned();
    app.wait_status(&t.test, &failed, "failed").await;
    // A live session sees live messages only; the test key's session its test ones.
    c.find(Locator::LinkText("Messages")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("table caption")).await.unwrap();
    let live = text(&c).await;
    assert!(live.contains("Live messages") && !live.contains("(test)"), "{live}");
    sign_in_with(&c, &app.base, &t.test).await;
    c.wait().for_element(Locator::Css("table caption")).await.unwrap();
    c.find(Locator::LinkText("Messages")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("table caption")).await.unwrap();
    let rows = c.find_all(Locator::Css("table tr")).await.unwrap();
    assert_eq!(rows.len(), 51, "a header and a page of 50");
    assert!(text(&c).await.contains("Older messages"));
    let first = rows[1].text().await.unwrap();
    assert!(first.contains("failed (test)") && first.contains("will bounce"), "newest first: {first}");
    shot(&c, "messages").await;
    rows[1].find(Locator::Css("a")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("ol")).await.unwrap();
    let page = text(&c).await;
    assert!(page.contains("Failure reason") && page.contains("Carrier rejected"), "{page}");
    assert!(page.contains("DELIVERY_FAILED") && page.contains("Failed 20"), "{page}");
    shot(&c, "message-failed").await;
    sign_in_with(&c, &app.base, &t.live).await;
    c.wait().for_element(Locator::Css("table caption")).await.unwrap();
    // The filter: delivered only.
    c.goto(&format!("{}/dashboard/messages?status=delivered&to=%2B14155550199", app.base)).await.unwrap();
    let rows = c.find_all(Locator::Css("table tr")).await.unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows[1].text().await.unwrap().contains("delivered"));
    // A message read by its recipient: the timeline's sent, delivered and read, and its expiry.
    let sim = serde_json::json!({"latency_ms": 0, "read_after_ms": 0});
    let reader =
        serde_json::json!({"tenant_id": t.id, "number": "+15550100003", "driver": "sim", "sim": sim});
    app.add_phone(reader).await.expect(201, None);
    let body = serde_json::json!({"to": "+14155550198", "body": "read me", "from": "+15550100003", "valid_for": 600});
    let read =
        app.send(&t.live, body).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    app.wait_status(&t.live, &read, "read").await;
    c.goto(&format!("{}/dashboard/messages/{read}", app.base)).await.unwrap();
    c.wait().for_element(Locator::Css("ol")).await.unwrap();
    let page = text(&c).await;
    assert!(page.contains("Sent 20") && page.contains("Delivered 20") && page.contains("Read 20"), "{page}");
    assert!(page.contains("Expires") && page.contains("EXPIRED"), "{page}");
    shot(&c, "message-read").await;
    // A message with attachments: the image drawn as a thumbnail, the PDF a link; both through
    // signed links on the page's own origin, which the page's policy lets it load.
    let checker = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/checker.png")).unwrap();
    let up = |q: &'static str, ctype: &'static str, bytes: Vec<u8>| {
        let (app, key) = (&app, &t.live);
        async move {
            let r = crate::media::upload(app, key, q, ctype, bytes).await.expect(201, None);
            r.data()["media_id"].as_str().unwrap().to_owned()
        }
    };
    let image = up("?filename=checker.png", "image/png", checker).await;
    let pdf = up("?filename=terms.pdf", "application/pdf", b"%PDF-1.4\n%%EOF\n".to_vec()).await;
    let body = serde_json::json!({"to": "+14155550197", "body": "see attached", "media": [image, pdf]});
    let with_media =
        app.send(&t.live, body).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    c.goto(&format!("{}/dashboard/messages/{with_media}", app.base)).await.unwrap();
    c.wait().for_element(Locator::Css("ul.attachments")).await.unwrap();
    let drawn = "const i = document.querySelector('ul.attachments img'); return i && i.complete ? i.naturalWidth : -1";
    let mut width = serde_json::Value::Null;
    for _ in 0..50 {
        width = c.execute(drawn, vec![]).await.unwrap();
        if width != -1 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(width, 48, "the thumbnail is drawn from the image's bytes");
    let images = c.find_all(Locator::Css("ul.attachments img")).await.unwrap();
    assert_eq!(images.len(), 1, "only the image is drawn");
    let page = text(&c).await;
    assert!(page.contains("checker.png (image/png, 127 bytes)"), "{page}");
    assert!(page.contains("terms.pdf (application/pdf, 15 bytes)"), "{page}");
    let href = c
        .find(Locator::XPath("//ul[@class='attachments']//a[contains(., 'terms.pdf')]"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    let (status, bytes, _, _) = crate::media::fetch(&app, &href, None).await;
    assert_eq!(
        (status, bytes.as_slice()),
        (200, &b"%PDF-1.4\n%%EOF\n"[..]),
        "the link serves the file without a key"
    );
    shot(&c, "message-attachments").await;
    // An agent phone whose five last reports were its own failures takes itself out.
    let (_, sick) = app.agent_phone(&t.id, "+15550100004").await;
    app.poll(&sick, 0).await;
    for n in 0..5 {
        let body =
            serde_json::json!({"to": format!("+1415555{:04}", 300 + n), "body": "x", "from": "+15550100004"});
        let id =
            app.send(&t.live, body).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
        app.poll(&sick, 0).await;
        let fail = serde_json::json!({"status": "failed", "failure_reason": "Messages is not signed in", "failure_scope": "phone"});
        app.report(&sick, &id, fail).await.expect(200, None);
    }

    // API keys: create one (shown once), then revoke it after a confirmation.
    c.find(Locator::LinkText("API keys")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("input#name")).await.unwrap();
    c.find(Locator::Css("input#name")).await.unwrap().send_keys("from the dashboard").await.unwrap();
    // All the session key's scopes are ticked; this key may send and read, not manage.
    c.find(Locator::Css("input#scope-manage")).await.unwrap().click().await.unwrap();
    c.find(Locator::XPath("//button[text()='Create key']")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("code#new-key")).await.unwrap();
    let made = c.find(Locator::Css("code#new-key")).await.unwrap().text().await.unwrap();
    assert!(made.starts_with("svc_live_"), "{made}");
    let listed = app.list_keys(&made).await.expect(200, None); // it works on the API
    let row =
        listed.data().as_array().unwrap().iter().find(|k| k["name"] == "from the dashboard").unwrap().clone();
    assert_eq!(row["scopes"], serde_json::json!(["send", "read"]));
    assert!(text(&c).await.contains("send, read"), "the list shows its scopes");
    shot(&c, "key-created").await;
    c.goto(&format!("{}/dashboard/keys", app.base)).await.unwrap();
    assert!(!text(&c).await.contains(&made), "shown once only");
    c.find(Locator::LinkText("Revoke from the dashboard")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::XPath("//button[text()='Revoke']")).await.unwrap();
    shot(&c, "key-revoke-confirm").await;
    c.find(Locator::XPath("//button[text()='Revoke']")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("input#name")).await.unwrap();
    assert!(!text(&c).await.contains("from the dashboard"));
    app.list_keys(&made).await.expect(401, Some("INVALID_API_KEY"));

    // Webhooks: a delivery that failed all four attempts is marked failed; Retry sends it again.
    let rx = spawn_receiver().await;
    rx.set_status(500);
    let w = app
        .call(
            "POST",
            "/v1/webhooks",
            Some(&t.live),
            Some(serde_json::json!({"url": rx.url, "events": ["message.delivered"]})),
        )
        .await
        .expect(201, None);
    let wid = w.data()["id"].as_str().unwrap().to_owned();
    app.send(&t.test, serde_json::json!({"to": "+14155550100", "body": "hooked"})).await.expect(202, None);
    rx.wait_for(1).await;
    for (secs, n) in [(2, 2), (4, 3), (8, 4)] {
        app.wait_attempts(&t.test, &wid, n - 1).await;
        app.clock.advance(Duration::from_secs(secs));
        rx.wait_for(n).await;
    }
    c.find(Locator::LinkText("Webhooks")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::LinkText("Delivery log")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("section.delivery")).await.unwrap();
    let mut log = String::new();
    for _ in 0..50 {
        log = text(&c).await;
        if log.contains("State: failed") {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        c.refresh().await.unwrap();
    }
    assert!(log.contains("State: failed — all attempts failed"), "{log}");
    assert_eq!(log.matches("500 (failed)").count(), 4, "{log}");
    shot(&c, "webhook-failed").await;
    rx.set_status(200);
    c.find(Locator::XPath("//button[text()='Retry']")).await.unwrap().click().await.unwrap();
    rx.wait_for(5).await;
    assert_eq!(c.current_url().await.unwrap().path(), format!("/dashboard/webhooks/{wid}"));
    for _ in 0..50 {
        log = text(&c).await;
        if log.contains("State: succeeded") {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        c.refresh().await.unwrap();
    }
    assert!(log.contains("State: succeeded") && log.contains("5 (retry 1)"), "{log}");
    shot(&c, "webhook-retried").await;
    // The switch: off, then on; then "recover since" (nothing failed is left).
    c.find(Locator::XPath("//button[text()='Turn off']")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::XPath("//button[text()='Turn on']")).await.unwrap();
    assert!(text(&c).await.contains("it gets no deliveries"));
    assert!(c.find(Locator::Css("form.recover")).await.is_err(), "no recovery while off");
    shot(&c, "webhook-off").await;
    c.find(Locator::XPath("//button[text()='Turn on']")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("form.recover")).await.unwrap();
    let since = "document.getElementById('since').value = '2026-11-22T00:00:00';";
    c.execute(since, vec![]).await.unwrap();
    c.find(Locator::XPath("//button[text()='Recover']")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("p.notice")).await.unwrap();
    assert!(text(&c).await.contains("0 failed deliveries started again."));
    shot(&c, "webhook-recovered").await;

    // Settings: a help reply and quiet hours on, saved; an opt-out the API made is listed.
    app.call("POST", "/v1/opt-outs", Some(&t.live), Some(serde_json::json!({"phone": "+14155550177"})))
        .await
        .expect(201, None);
    c.find(Locator::LinkText("Settings")).await.unwrap().click().await.unwrap();
    let help = c.wait().for_element(Locator::Css("textarea#help_reply")).await.unwrap();
    help.send_keys("Acme alerts. Reply STOP to stop.").await.unwrap();
    c.find(Locator::Css("input#quiet_enabled")).await.unwrap().click().await.unwrap();
    c.find(Locator::XPath("//button[text()='Save']")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("p[role=status]")).await.unwrap();
    let page = text(&c).await;
    assert!(
        page.contains("Saved.") && page.contains("+14155550177") && page.contains("through the API"),
        "{page}"
    );
    shot(&c, "settings").await;
    let saved = app.call("GET", "/v1/settings", Some(&t.live), None).await.expect(200, None);
    assert_eq!(saved.data()["help_reply"], "Acme alerts. Reply STOP to stop.");
    assert_eq!(saved.data()["quiet_hours"]["enabled"], true, "ticked on (`create_tenant` turns it off)");

    // The operator, in a browser of its own, suspends the tenant: the tenant's session ends.
    let (_driver2, op) = browser().await;
    sign_in_with(&op, &app.base, ADMIN).await;
    op.wait().for_element(Locator::LinkText("Manage acme")).await.unwrap().click().await.unwrap();
    op.wait().for_element(Locator::XPath("//button[text()='Suspend']")).await.unwrap().click().await.unwrap();
    op.wait().for_element(Locator::XPath("//button[text()='Reactivate']")).await.unwrap();
    assert!(text(&op).await.contains("suspended"));
    shot(&op, "operator-tenant").await;
    // Another tenant's phone runs `pigeon agent`, which has just polled.
    let bravo = app
        .call(
            "POST",
            "/admin/v1/tenants",
            Some(ADMIN),
            Some(serde_json::json!({"name": "bravo", "plan": "starter"})),
        )
        .await
        .expect(201, None);
    let (_, agent) = app.agent_phone(bravo.data()["id"].as_str().unwrap(), "+15550100002").await;
    let polled = awc::Client::new()
        .get(format!("{}/phone/v1/jobs?wait=0", app.base))
        .insert_header(("User-Agent", "pigeon-agent/0.1.0"))
        .bearer_auth(&agent)
        .send()
        .await
        .unwrap();
    assert_eq!(polled.status(), 200);
    op.find(Locator::LinkText("Phones")).await.unwrap().click().await.unwrap();
    op.wait().for_element(Locator::Css("table caption")).await.unwrap();
    let phones = text(&op).await;
    assert!(
        phones.contains("+15550100001") && phones.contains("online") && phones.contains("1 of 300"),
        "{phones}"
    );
    assert!(
        phones.contains("+15550100002 bravo agent yes online") && phones.contains("pigeon-agent/0.1.0"),
        "{phones}"
    );
    assert!(
        phones.contains("Disabled itself after 5 failures") && phones.contains("not signed in"),
        "{phones}"
    );
    shot(&op, "operator-phones").await;
    op.find(Locator::LinkText("Node")).await.unwrap().click().await.unwrap();
    op.wait().for_element(Locator::Css("table caption")).await.unwrap();
    let node = text(&op).await;
    assert!(node.contains("http error 4") && node.contains("success 1"), "{node}");
    shot(&op, "operator-node").await;
    c.goto(&format!("{}/dashboard/", app.base)).await.unwrap();
    c.wait().for_element(Locator::Css("input#key")).await.unwrap();
    assert_eq!(c.current_url().await.unwrap().path(), "/dashboard/login");
    op.goto(&format!("{}/dashboard/admin/tenants/{}", app.base, t.id)).await.unwrap();
    op.wait()
        .for_element(Locator::XPath("//button[text()='Reactivate']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    op.wait().for_element(Locator::XPath("//button[text()='Suspend']")).await.unwrap();
    op.close().await.unwrap();
    sign_in_with(&c, &app.base, &t.live).await;
    c.wait().for_element(Locator::Css("table caption")).await.unwrap();

    // Signing out comes back to the form; the Overview is closed again.
    c.find(Locator::XPath("//button[text()='Sign out']")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("input#key")).await.unwrap();
    assert_eq!(c.current_url().await.unwrap().path(), "/dashboard/login");
    c.goto(&format!("{}/dashboard/", app.base)).await.unwrap();
    assert_eq!(c.current_url().await.unwrap().path(), "/dashboard/login");

    // A session whose key is revoked is sent back to sign-in.
    let k = app.create_key(&t.live, serde_json::json!({"name": "short-lived"})).await.expect(201, None);
    let (kid, key) =
        (k.data()["id"].as_str().unwrap().to_owned(), k.data()["key"].as_str().unwrap().to_owned());
    sign_in_with(&c, &app.base, &key).await;
    c.wait().for_element(Locator::Css("table caption")).await.unwrap();
    app.revoke_key(&t.live, &kid).await.expect(200, None);
    c.goto(&format!("{}/dashboard/messages", app.base)).await.unwrap();
    c.wait().for_element(Locator::Css("input#key")).await.unwrap();
    assert_eq!(c.current_url().await.unwrap().path(), "/dashboard/login");
    c.close().await.unwrap();
}

/// The operator's console on a fleet: signed in on one node, the node page lists both live nodes
/// (this one marked) with their tenants, and a tenant owned by the other node opens here (the
/// page is the owner's, forwarded).
#[actix_web::test]
async fn the_operator_console_shows_the_fleet() {
    if !browser_available() || !pigeon_storage::pg::testing::available() {
        return;
    }
    let url = pigeon_storage::pg::testing::database_url();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let env = [("PIGEON_DATABASE_URL", url.as_str())];
    let a = spawn_binary_with(&dir.path().join("a"), Some(ADMIN), &log, &env);
    let b = spawn_binary_with(&dir.path().join("b"), Some(ADMIN), &log, &env);
    let t = a.create_tenant("growth").await;
    let (_driver, op) = browser().await;
    sign_in_with(&op, &b.base, ADMIN).await;
    op.wait().for_element(Locator::LinkText("Node")).await.unwrap().click().await.unwrap();
    op.wait().for_element(Locator::XPath("//caption[starts-with(text(), 'Fleet')]")).await.unwrap();
    let page = text(&op).await;
    assert!(page.contains(&a.base[7..]) && page.contains(&b.base[7..]), "{page}");
    assert_eq!(page.matches("(this node)").count(), 1, "{page}");
    let scroll = "for (const c of document.querySelectorAll('caption')) if (c.textContent.startsWith('Fleet')) c.scrollIntoView();";
    op.execute(scroll, vec![]).await.unwrap();
    shot(&op, "operator-fleet").await;
    op.goto(&format!("{}/dashboard/admin/tenants/{}", b.base, t.id)).await.unwrap();
    op.wait().for_element(Locator::XPath("//button[text()='Suspend']")).await.unwrap();
    assert!(text(&op).await.contains("acme"));
    // Ends the session, so ChromeDriver closes its Chromium before the driver is killed.
    op.close().await.unwrap();
}
