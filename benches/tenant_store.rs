//! The store's own share of the memory `benches/tenants.rs` measures: the same records for N
//! tenants (a tenant with two keys, a sim phone, one delivered message, its recipient, its
//! counters and two hourly counts) written straight to a store, no server, no actors; the
//! process's RSS after writing and 20 s later. Same allocator as the server (mimalloc).
//!
//! `cargo bench --bench tenant_store [-- N]` (default 100,000).

#![allow(missing_docs)]
use chrono::Utc;
use pigeon_actors::credentials;
use pigeon_actors::storage::model::*;
use pigeon_actors::storage::{Hourly, Store};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn rss() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap()
        / 1024.0
}

fn main() {
    if let Ok(dir) = std::env::var("REOPEN") {
        return reopen(&dir);
    }
    let n: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    println!("store open: RSS {:.0} MiB", rss());
    let now = Utc::now();
    for i in 0..n {
        let t = TenantRecord {
            id: store.new_id(),
            name: format!("t{i}"),
            plan: Plan::Starter,
            status: TenantStatus::Active,
            subscription_active: false,
            trial_ends_at: now,
            new_contact_daily_limit: None,
            monthly_call_limit: None,
            quiet_hours: QuietHours::default(),
            replies: Default::default(),
            media_bytes_limit: None,
            created_at: now,
        };
        let key = |env: Environment| {
            let k = credentials::generate("svc_live_");
            ApiKeyRecord {
                id: store.new_id(),
                tenant_id: t.id,
                name: "k".into(),
                environment: env,
                hash: credentials::hash(&k),
                hint: credentials::hint(&k),
                rate_limit: None,
                scopes: Default::default(),
                active: true,
                revoked_at: None,
                last_used_at: None,
                created_at: now,
            }
        };
        store.create_tenant(&t, &[key(Environment::Live), key(Environment::Test)]).unwrap();
        let p = PhoneRecord {
            id: store.new_id(),
            tenant_id: t.id,
            number: format!("+1555{i:07}"),
            daily_limit: 300,
            driver: PhoneDriver::Sim,
            sim: SimSettings { latency_ms: 0, ..SimSettings::default() },
            enabled: true,
            sim_online: true,
            agent_token_hash: None,
            created_at: now,
            announced_online: None,
            disabled_reason: None,
        };
        store.phones().put(&p).unwrap();
        let mut m = MessageRecord::new(
            store.new_id(),
            t.id,
            Direction::Outbound,
            MessageStatus::Delivered,
            format!("+1415{i:07}"),
            "hello".into(),
            Channel::Auto,
            now,
        );
        m.tally = vec![
            ("calls:2026-11".into(), 1),
            (format!("phone_sent:{}:2026-11-23", p.id), 1),
            ("new_contacts:2026-11-23".into(), 1),
        ];
        let r = RecipientRecord { first_at: now, last_phone: Some(p.id) };
        store.accept_message(&m, Some((&m.to.clone(), &r)), None).unwrap();
        store.tenants().count_hour(t.id, Hourly::Sent, 500_000).unwrap();
        store.tenants().count_hour(t.id, Hourly::Delivered, 500_000).unwrap();
        store.messages().put(&m).unwrap();
        if i % 1000 == 999 {
            rt.block_on(store.commit()).unwrap();
        }
    }
    rt.block_on(store.commit()).unwrap();
    println!("{n} tenants' records written: RSS {:.0} MiB", rss());
    std::thread::sleep(std::time::Duration::from_secs(20));
    println!("20 s later: RSS {:.0} MiB", rss());
    drop(store);
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .env("REOPEN", dir.path())
        .status()
        .unwrap();
    assert!(status.success());
}

fn reopen(dir: &str) {
    let store = Store::open(std::path::Path::new(dir)).unwrap();
    println!("reopened in a fresh process: RSS {:.0} MiB", rss());
    let mut ids = Vec::new();
    let mut after = None;
    loop {
        let page = store.tenants().page(after, 100).unwrap();
        let Some(last) = page.last() else { break };
        after = Some(last.id);
        ids.extend(page.iter().map(|t| t.id));
    }
    println!("every tenant listed: RSS {:.0} MiB", rss());
    let day = Utc::now().date_naive();
    for round in 0..2 {
        for t in &ids {
            store.tenants().get(*t).unwrap();
            store.tenants().counter(*t, &format!("new_contacts:{day}")).unwrap();
            store.tenants().counter(*t, "calls:2026-11").unwrap();
            for p in store.phones().of(*t).unwrap() {
                store.tenants().counter(*t, &format!("phone_sent:{}:{day}", p.id)).unwrap();
            }
            store.webhooks().of(*t).unwrap();
            store.keys().of(*t).unwrap();
        }
        println!("every tenant's wake reads, round {round}: RSS {:.0} MiB", rss());
    }
    std::thread::sleep(std::time::Duration::from_secs(20));
    println!("20 s later: RSS {:.0} MiB", rss());
}
