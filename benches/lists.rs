//! A filtered message list over a million stored messages: what one call costs (it reads at most
//! `MAX_LIST_READ` records and answers a cursor), and what walking the whole tenant page by page
//! costs, for a filter that matches 1 in 1,000 (`status=failed`) and one number (`to`).
//!
//! `cargo bench --bench lists [-- N]` (default 1,000,000 messages). Not criterion: filling the
//! store is the slow part and is done once.

#![allow(missing_docs)]

use std::time::{Duration, Instant};

use chrono::Utc;
use pigeon_actors::MAX_LIST_READ;
use pigeon_storage::model::{Channel, Direction, MessageRecord, MessageStatus};
use pigeon_storage::Store;

fn main() {
    let n: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1_000_000);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let tenant = store.new_id();
    let rare = "+14155559999";
    let started = Instant::now();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    for i in 0..n {
        let failed = i % 1000 == 999;
        let to = if i % 1000 == 500 { rare.to_owned() } else { format!("+1415{:07}", i % 10_000_000) };
        let status = if failed { MessageStatus::Failed } else { MessageStatus::Delivered };
        let m = MessageRecord::new(
            store.new_id(),
            tenant,
            Direction::Outbound,
            status,
            to,
            "hello".into(),
            Channel::Auto,
            Utc::now(),
        );
        store.messages().put(&m).unwrap();
        if i % 10_000 == 9_999 {
            rt.block_on(store.commit()).unwrap();
        }
    }
    rt.block_on(store.commit()).unwrap();
    println!("stored {n} messages in {:.1} s", started.elapsed().as_secs_f64());

    let all = |_: &MessageRecord| true;
    let failed = |m: &MessageRecord| m.status == MessageStatus::Failed;
    let to_rare = |m: &MessageRecord| m.to == rare;
    for (name, keep) in [
        ("no filter", &all as &dyn Fn(&MessageRecord) -> bool),
        ("status=failed (1 in 1,000)", &failed),
        ("to=one number (1 in 1,000)", &to_rare),
    ] {
        // One call, as a client's first page: three runs, the best (the OS cache is warm).
        let mut best = Duration::MAX;
        let mut found = 0;
        for _ in 0..3 {
            let t = Instant::now();
            let (page, _) = store.messages().page(tenant, None, 50, MAX_LIST_READ, keep).unwrap();
            best = best.min(t.elapsed());
            found = page.len();
        }
        // The whole tenant, page by page, as a client following `next_cursor`.
        let t = Instant::now();
        let (mut calls, mut total, mut after, mut slowest) = (0, 0, None, Duration::ZERO);
        loop {
            let call = Instant::now();
            let (page, stopped) = store.messages().page(tenant, after, 50, MAX_LIST_READ, keep).unwrap();
            slowest = slowest.max(call.elapsed());
            calls += 1;
            total += page.len();
            after = match (stopped, page.last()) {
                (Some(s), _) => Some(s),
                (None, Some(m)) if page.len() == 50 => Some(m.id),
                _ => break,
            };
        }
        println!(
            "{name:28} first call {:>6.2} ms ({found} items); whole tenant: {calls} calls, {total} items, \
             {:.2} s, slowest call {:.2} ms",
            best.as_secs_f64() * 1e3,
            t.elapsed().as_secs_f64(),
            slowest.as_secs_f64() * 1e3
        );
    }
}
