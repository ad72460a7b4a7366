//! Dashboard pages over a million stored messages, over real HTTP: the store is filled directly
//! (one tenant, 1 in 1,000 messages failed, 1 in 1,000 to one number), then the server opens it
//! and a signed-in client times each page: the best and the median of 9 calls after a warm-up.
//!
//! `cargo bench --bench dashboard [-- N]` (default 1,000,000 messages). Not criterion: filling
//! the store is the slow part and is done once.

#![allow(missing_docs)]

use std::net::TcpListener;
use std::time::{Duration, Instant};

use chrono::Utc;
use pigeon::clock::SystemClock;
use pigeon::config::Settings;
use pigeon::startup::Application;
use pigeon_actors::credentials;
use pigeon_actors::storage::model::{
    ApiKeyRecord, Channel, Direction, Environment, MessageRecord, MessageStatus, Plan, QuietHours,
    TenantRecord, TenantStatus,
};
use pigeon_actors::storage::Store;

const RARE: &str = "+14155559999";

/// Fills a store with one tenant and `n` messages; returns the tenant's live key and a message id
/// half-way through (an "older messages" cursor deep in the tenant).
fn fill(dir: &std::path::Path, n: usize) -> (String, String) {
    let store = Store::open(dir).unwrap();
    let now = Utc::now();
    let tenant = TenantRecord {
        id: store.new_id(),
        name: "bench".into(),
        plan: Plan::Scale,
        status: TenantStatus::Active,
        subscription_active: true,
        trial_ends_at: now,
        new_contact_daily_limit: None,
        monthly_call_limit: None,
        quiet_hours: QuietHours::default(),
        replies: Default::default(),
        media_bytes_limit: None,
        created_at: now,
    };
    let key = credentials::generate("svc_live_");
    let record = ApiKeyRecord {
        id: store.new_id(),
        tenant_id: tenant.id,
        name: "bench".into(),
        environment: Environment::Live,
        hash: credentials::hash(&key),
        hint: credentials::hint(&key),
        rate_limit: None,
        scopes: Default::default(),
        active: true,
        revoked_at: None,
        last_used_at: None,
        created_at: now,
    };
    store.create_tenant(&tenant, &[record]).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let started = Instant::now();
    let mut middle = String::new();
    for i in 0..n {
        let to = if i % 1000 == 500 { RARE.to_owned() } else { format!("+1415{:07}", i % 10_000_000) };
        let status = if i % 1000 == 999 { MessageStatus::Failed } else { MessageStatus::Delivered };
        let m = MessageRecord::new(
            store.new_id(),
            tenant.id,
            Direction::Outbound,
            status,
            to,
            "hello".into(),
            Channel::Auto,
            Utc::now(),
        );
        if i == n / 2 {
            middle = m.id.to_string();
        }
        store.messages().put(&m).unwrap();
        if i % 10_000 == 9_999 {
            rt.block_on(store.commit()).unwrap();
        }
    }
    rt.block_on(store.commit()).unwrap();
    println!("stored {n} messages in {:.1} s", started.elapsed().as_secs_f64());
    (key, middle)
}

fn main() {
    let n: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1_000_000);
    let dir = tempfile::tempdir().unwrap();
    let (key, middle) = fill(dir.path(), n);

    actix_rt::System::new().block_on(async move {
        let mut settings = Settings::new(dir.path());
        settings.admin_token = Some(credentials::generate("svc_admin_"));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let opening = Instant::now();
        let app = Application::build(settings, listener, SystemClock::shared()).await.unwrap();
        println!("server opened the store in {:.2} s", opening.elapsed().as_secs_f64());
        let base = format!("http://127.0.0.1:{}", app.port());
        let handle = app.handle();
        let running = actix_rt::spawn(app.run_until_stopped());

        let client = awc::Client::builder().disable_redirects().timeout(Duration::from_secs(30)).finish();
        // The form first: its pre-session cookie and the CSRF token bound to it.
        let mut form = client.get(format!("{base}/dashboard/login")).send().await.unwrap();
        let pre =
            form.headers().get("set-cookie").unwrap().to_str().unwrap().split(';').next().unwrap().to_owned();
        let page = String::from_utf8(form.body().await.unwrap().to_vec()).unwrap();
        let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
        let r = client
            .post(format!("{base}/dashboard/login"))
            .insert_header(("Cookie", pre))
            .send_form(&[("key", key.as_str()), ("csrf", csrf.as_str())])
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 303, "signed in");
        let cookie = r
            .headers()
            .get_all("set-cookie")
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("pigeon_session="))
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned();

        let pages = [
            ("Overview (usage, phones, 24 h chart)", "/dashboard/".to_owned()),
            ("Messages, newest 50", "/dashboard/messages".to_owned()),
            ("Messages, status=failed (1 in 1,000)", "/dashboard/messages?status=failed".to_owned()),
            (
                "Messages, one number (1 in 1,000)",
                format!("/dashboard/messages?to={}", RARE.replace('+', "%2B")),
            ),
            ("Messages, older than the middle", format!("/dashboard/messages?before={middle}")),
            ("One message", format!("/dashboard/messages/{middle}")),
        ];
        for (name, path) in &pages {
            let mut times = Vec::new();
            let mut bytes = 0;
            for _ in 0..10 {
                let t = Instant::now();
                let mut r = client
                    .get(format!("{base}{path}"))
                    .insert_header(("Cookie", cookie.as_str()))
                    .send()
                    .await
                    .unwrap();
                let body = r.body().limit(8 << 20).await.unwrap();
                times.push(t.elapsed());
                assert_eq!(r.status().as_u16(), 200, "{path}");
                bytes = body.len();
            }
            times.remove(0); // the warm-up
            times.sort();
            println!(
                "{name:40} best {:>6.2} ms, median {:>6.2} ms, {:>6} bytes",
                times[0].as_secs_f64() * 1e3,
                times[times.len() / 2].as_secs_f64() * 1e3,
                bytes
            );
        }
        handle.stop(true).await;
        running.await.unwrap().unwrap();
    });
}
