//! The store's families against a real sled directory and a real PostgreSQL database: reopen,
//! indexes, group commit. Every test runs on both engines (`on_both!`), which is what keeps them
//! one interface with one behaviour.

use super::*;
use crate::model::*;
use chrono::Utc;

/// Where a test's store lives.
enum Place {
    Sled(tempfile::TempDir),
    Postgres(String),
}

impl Place {
    fn sled() -> Self {
        Place::Sled(tempfile::tempdir().unwrap())
    }

    /// `None` (the test is skipped) where PostgreSQL is not installed.
    fn postgres() -> Option<Self> {
        crate::pg::testing::available().then(|| Place::Postgres(crate::pg::testing::database_url()))
    }

    /// Opens (again) the store kept there.
    fn open(&self) -> Store {
        match self {
            Place::Sled(dir) => Store::open(dir.path()).unwrap(),
            Place::Postgres(url) => {
                Store::open_postgres(url, 4, DEFAULT_CACHE_MB, SystemClock::shared(), None).unwrap()
            }
        }
    }

    /// Opens (again) the store as a node of a fleet on PostgreSQL (each time a new node, which
    /// must take its tenants); on sled as [`Place::open`].
    fn open_as_node(&self) -> Store {
        let Place::Postgres(url) = self else { return self.open() };
        let node = crate::pg::FleetConfig {
            advertise_url: "http://127.0.0.1:1".into(),
            lease: std::time::Duration::from_secs(30),
            version: "test".into(),
            home: None,
        };
        Store::open_postgres(url, 4, DEFAULT_CACHE_MB, SystemClock::shared(), Some(node)).unwrap()
    }
}

/// Runs the test `$name(place)` once on sled and once on PostgreSQL.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sled() {
                super::$name(super::Place::sled()).await
            }

            #[tokio::test]
            async fn postgres() {
                if let Some(place) = super::Place::postgres() {
                    super::$name(place).await
                }
            }
        }
    )*};
}

on_both!(
    records_survive_reopen_and_revocation_leaves_the_index,
    tenants_page_in_id_order,
    the_pending_index_follows_message_status_across_reopen,
    concurrent_commits_share_flushes,
    flushes_are_paced_while_writers_arrive_together,
    a_renamed_template_frees_its_old_name_and_a_deleted_one_both,
    retention_deletes_only_what_is_final_and_old_and_keeps_campaign_counts,
    daily_counters_of_past_days_go_and_the_others_stay,
    writes_are_counted_as_the_send_path_makes_them,
    young_work_is_listed_again_after_a_stop,
    a_filtered_page_reads_a_bounded_number_of_messages_and_says_where_it_stopped,
    hourly_counts_keep_24_hours_and_survive_reopen,
);

fn tenant() -> TenantRecord {
    let now = crate::ts::truncate(Utc::now());
    TenantRecord {
        id: Ulid::generate(),
        name: "acme".into(),
        plan: Plan::Trial,
        status: TenantStatus::Active,
        subscription_active: false,
        trial_ends_at: now,
        new_contact_daily_limit: None,
        monthly_call_limit: None,
        quiet_hours: QuietHours::default(),
        replies: Default::default(),
        media_bytes_limit: None,
        created_at: now,
    }
}

fn key(t: Ulid, hash: &str) -> ApiKeyRecord {
    ApiKeyRecord {
        id: Ulid::generate(),
        tenant_id: t,
        name: "k".into(),
        environment: Environment::Live,
        hash: hash.into(),
        hint: "...abcd".into(),
        rate_limit: None,
        scopes: Default::default(),
        active: true,
        revoked_at: None,
        last_used_at: None,
        created_at: crate::ts::truncate(Utc::now()),
    }
}

async fn records_survive_reopen_and_revocation_leaves_the_index(place: Place) {
    let t = tenant();
    let mut k = key(t.id, &"a1".repeat(32));
    {
        let s = place.open();
        s.create_tenant(&t, std::slice::from_ref(&k)).unwrap();
        s.tenants().set_counter(t.id, "calls:2026-11", 7);
        s.commit().await.unwrap();
        assert_eq!(s.keys().by_hash(&k.hash).unwrap(), Some(KeyLocation { tenant_id: t.id, key_id: k.id }));
    }
    let s = place.open();
    assert_eq!(s.tenants().get(t.id).unwrap(), Some(t.clone()));
    assert_eq!(s.keys().of(t.id).unwrap(), vec![k.clone()]);
    assert_eq!(s.keys().owner(k.id).unwrap(), Some(t.id));
    assert_eq!(s.tenants().counter(t.id, "calls:2026-11").unwrap(), 7);
    // A use is noted on the record alone; the key still authenticates.
    k.last_used_at = Some(crate::ts::truncate(Utc::now()));
    s.keys().touch(&k).unwrap();
    assert_eq!(s.keys().of(t.id).unwrap(), vec![k.clone()]);
    assert_eq!(s.keys().by_hash(&k.hash).unwrap(), Some(KeyLocation { tenant_id: t.id, key_id: k.id }));
    k.revoked_at = Some(crate::ts::truncate(Utc::now()));
    s.keys().put(&k).unwrap();
    assert_eq!(s.keys().by_hash(&k.hash).unwrap(), None);
    assert_eq!(s.keys().of(t.id).unwrap()[0].revoked_at, k.revoked_at);
}

async fn tenants_page_in_id_order(place: Place) {
    let s = place.open();
    let mut ids = vec![];
    for _ in 0..5 {
        let t = tenant();
        s.tenants().put(&t).unwrap();
        ids.push(t.id);
    }
    ids.sort();
    let page: Vec<_> = s.tenants().page(Some(ids[1]), 2).unwrap().into_iter().map(|t| t.id).collect();
    assert_eq!(page, ids[2..4].to_vec());
}

fn message(tenant: Ulid, phone: Option<Ulid>) -> MessageRecord {
    let now = crate::ts::truncate(Utc::now());
    MessageRecord {
        phone_id: phone,
        test: phone.is_none(),
        ..MessageRecord::new(
            new_id(),
            tenant,
            Direction::Outbound,
            MessageStatus::Queued,
            "+14155550100".into(),
            "hi".into(),
            Channel::Auto,
            now,
        )
    }
}

/// A `message.delivered` delivery to `webhook`, with no attempt yet.
fn delivery(tenant: Ulid, webhook: Ulid, id: Ulid, state: DeliveryState) -> DeliveryRecord {
    DeliveryRecord {
        id,
        tenant_id: tenant,
        webhook_id: webhook,
        event_id: new_id(),
        event: "message.delivered".into(),
        payload: "{}".into(),
        state,
        cycle: 0,
        attempts: vec![],
        next_attempt_at: None,
        created_at: crate::ts::truncate(Utc::now()),
    }
}

async fn the_pending_index_follows_message_status_across_reopen(place: Place) {
    let (t, p) = (new_id(), new_id());
    let (a, mut b, c) = (message(t, Some(p)), message(t, Some(p)), message(t, None));
    {
        let s = place.open_as_node();
        s.fleet().acquire(t).unwrap();
        for m in [&a, &b, &c] {
            s.accept_message(m, None, None).unwrap();
        }
        s.tenants().set_counter(t, "calls:x", 1);
        b.status = MessageStatus::Sending;
        s.messages().put(&b).unwrap();
        let mut done = a.clone();
        done.status = MessageStatus::Delivered;
        s.messages().put(&done).unwrap();
        s.commit().await.unwrap();
        s.fleet().release().unwrap();
    }
    let s = place.open_as_node();
    s.fleet().acquire(t).unwrap();
    let work = s.messages().pending().unwrap();
    let ids: Vec<_> = work.iter().map(|w| (w.phone_id, w.message_id)).collect();
    // Test messages (no phone) sort first; the delivered one left the index.
    assert_eq!(ids, vec![(None, c.id), (Some(p), b.id)]);
    assert_eq!(s.messages().get(t, b.id).unwrap().unwrap().status, MessageStatus::Sending);
    s.messages().drop_pending(&work[0]).unwrap();
    assert_eq!(s.messages().pending().unwrap().len(), 1);
    assert_eq!(s.tenants().counter(t, "calls:x").unwrap(), 1);
}

/// 64 writers whose commits arrive together: each writes a record (so every flush carries work
/// on both engines), then all 64 commits are queued at once. Spawned tasks on this thread, each
/// writing then committing, were not together: the committer, flushing as fast as they came,
/// served them one by one whenever CI's load slowed the test's thread (so it failed, on
/// PostgreSQL, where a counter alone also left the flush empty, and on sled).
async fn concurrent_commits_share_flushes(place: Place) {
    let s = place.open();
    for _ in 0..64 {
        s.create_tenant(&tenant(), &[]).unwrap();
    }
    // `commit` queues its request when called, so all 64 are queued before the first await.
    let waits: Vec<_> = (0..64).map(|_| s.commit()).collect();
    for w in waits {
        w.await.unwrap();
    }
    assert_eq!(s.tenants().page(None, 100).unwrap().len(), 64);
    let st = s.commit_stats();
    assert_eq!(st.commits, 64);
    // The first writer may get a flush of its own; the rest queue behind it and share.
    assert!(st.flushes <= 8, "64 concurrent commits took {} flushes", st.flushes);
    // Each flush writes and syncs: it takes time, and the slow ones are a subset.
    assert!(st.flush_micros > 0, "flush time was not counted");
    assert!(st.slow_flushes <= st.flushes);
}

/// Writers committing together for 400 ms with a pace of 50 ms get at most one flush per pace
/// (and one to start): a committer that ignored it flushed every millisecond or two here.
async fn flushes_are_paced_while_writers_arrive_together(place: Place) {
    let s = place.open();
    s.set_min_flush_interval(std::time::Duration::from_millis(50));
    let t = Ulid::generate();
    let until = std::time::Instant::now() + std::time::Duration::from_millis(400);
    let writers: Vec<_> = (0..4u64)
        .map(|w| {
            let s = s.clone();
            tokio::spawn(async move {
                let mut n = 0;
                while std::time::Instant::now() < until {
                    s.tenants().set_counter(t, &format!("w{w}"), n);
                    s.commit().await.unwrap();
                    n += 1;
                }
            })
        })
        .collect();
    for w in writers {
        w.await.unwrap();
    }
    let st = s.commit_stats();
    // 400 ms / 50 ms, one flush for the lone first writer, and one for the last pace begun; on a
    // loaded machine a writer woken late arrives alone and is flushed at once (11 seen beside a
    // build), so the band is wide: an unpaced committer flushes hundreds of times here.
    assert!(st.flushes <= 16, "{} flushes in 400 ms at a pace of 50 ms", st.flushes);
    assert!(st.commits >= 2 * st.flushes, "writers did not share flushes: {st:?}");
}

async fn a_renamed_template_frees_its_old_name_and_a_deleted_one_both(place: Place) {
    let s = place.open();
    let (t, other) = (new_id(), new_id());
    let now = crate::ts::truncate(Utc::now());
    let mut tpl = TemplateRecord {
        id: new_id(),
        tenant_id: t,
        name: "welcome".into(),
        body: "Hi {{name}}".into(),
        variables: vec!["name".into()],
        created_at: now,
        updated_at: now,
    };
    s.templates().put(&tpl, None).unwrap();
    assert_eq!(s.templates().find(t, "welcome").unwrap().map(|x| x.id), Some(tpl.id));
    // Names are per tenant.
    assert_eq!(s.templates().find(other, "welcome").unwrap(), None);
    tpl.name = "hello".into();
    s.templates().put(&tpl, Some("welcome")).unwrap();
    assert_eq!(s.templates().find(t, "welcome").unwrap(), None);
    assert_eq!(s.templates().find(t, "hello").unwrap().map(|x| x.id), Some(tpl.id));
    assert_eq!(s.templates().page(t, None, 10).unwrap().len(), 1);
    s.templates().delete(&tpl).unwrap();
    assert_eq!(s.templates().find(t, "hello").unwrap(), None);
    assert_eq!(s.templates().get(t, tpl.id).unwrap(), None);
}

async fn retention_deletes_only_what_is_final_and_old_and_keeps_campaign_counts(place: Place) {
    let s = place.open();
    // Spans of a millisecond (on sled): the old messages, the cutoff and the new one each get
    // their own.
    s.set_span_length(std::time::Duration::from_millis(1));
    let pause = || std::thread::sleep(std::time::Duration::from_millis(3));
    let (t, p, campaign, webhook) = (new_id(), new_id(), new_id(), new_id());
    let mut old_done = message(t, Some(p));
    old_done.status = MessageStatus::Delivered;
    old_done.campaign_id = Some(campaign);
    let old_queued = message(t, Some(p));
    pause();
    let cutoff = new_id();
    pause();
    let mut new_done = message(t, Some(p));
    new_done.status = MessageStatus::Delivered;
    for m in [&old_done, &old_queued, &new_done] {
        s.accept_message(m, None, None).unwrap();
    }
    s.campaigns().link_message(t, campaign, old_done.id).unwrap();
    let delivery = |id: Ulid, state: DeliveryState| delivery(t, webhook, id, state);
    let (settled, pending) = (Ulid::from_parts(1, 1), Ulid::from_parts(1, 2));
    s.webhooks().put_delivery(&delivery(settled, DeliveryState::Succeeded)).unwrap();
    s.webhooks().put_delivery(&delivery(pending, DeliveryState::Pending)).unwrap();

    // What the sweeper does: retire the spans that ended before the cutoff, then delete key by
    // key from the base tree (all of it on PostgreSQL).
    let sweep = || {
        let (mut messages, mut deliveries) = (0, 0);
        loop {
            let (m, d, more) = s.retire_spans(cutoff, 100).unwrap();
            (messages, deliveries) = (messages + m, deliveries + d);
            if !more {
                break;
            }
        }
        messages += s.prune_messages(t, cutoff, 100).unwrap();
        deliveries += s.prune_deliveries(t, cutoff, 100).unwrap();
        (messages, deliveries)
    };
    assert_eq!(sweep(), (1, 1));
    assert_eq!(s.messages().get(t, old_done.id).unwrap(), None);
    assert!(s.messages().get(t, old_queued.id).unwrap().is_some(), "not final: kept");
    assert!(s.messages().get(t, new_done.id).unwrap().is_some(), "too young: kept");
    let (listed, _) = s.messages().page(t, None, 10, 10, |_| true).unwrap();
    assert_eq!(listed.iter().map(|m| m.id).collect::<Vec<_>>(), vec![old_queued.id, new_done.id]);
    // The campaign still counts the message it no longer links to.
    assert_eq!(s.campaigns().message_ids(t, campaign).unwrap(), vec![]);
    assert_eq!(s.campaigns().pruned(t, campaign).unwrap(), vec![(MessageStatus::Delivered, 1)]);
    assert_eq!(s.webhooks().delivery(t, webhook, settled).unwrap(), None);
    assert!(s.webhooks().delivery(t, webhook, pending).unwrap().is_some(), "pending: kept");
    assert_eq!(s.webhooks().due().unwrap().len(), 1);
    // A second pass finds nothing more and counts nothing twice.
    assert_eq!(sweep(), (0, 0));
    assert_eq!(s.campaigns().pruned(t, campaign).unwrap(), vec![(MessageStatus::Delivered, 1)]);
    // The message kept goes once final, from wherever it now lives.
    let mut done = old_queued.clone();
    done.status = MessageStatus::Delivered;
    s.messages().put(&done).unwrap();
    assert_eq!(sweep(), (1, 0));
    assert_eq!(s.messages().get(t, old_queued.id).unwrap(), None);

    let now = crate::ts::truncate(Utc::now());
    let old = now - chrono::Duration::days(8);
    for (i, at) in [old, now].into_iter().enumerate() {
        s.numbers()
            .put_detection(t, &format!("+1415555010{i}"), &DetectionRecord { imessage: true, checked_at: at })
            .unwrap();
    }
    // A scan in steps of one key: the cursor carries it over the whole tree.
    let (mut cursor, mut deleted) = (None, 0);
    loop {
        let (next, n) = s.prune_detections(cursor, now - chrono::Duration::days(7), 1).unwrap();
        deleted += n;
        cursor = next;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(deleted, 1);
    assert!(s.numbers().detection(t, "+14155550100").unwrap().is_none());
    assert!(s.numbers().detection(t, "+14155550101").unwrap().is_some());
}

async fn daily_counters_of_past_days_go_and_the_others_stay(place: Place) {
    let s = place.open();
    let (t, phone) = (new_id(), new_id());
    let names = [
        "new_contacts:2026-11-20".to_owned(),
        format!("phone_sent:{phone}:2026-11-21"),
        "new_contacts:2026-11-22".to_owned(),
        format!("phone_sent:{phone}:2026-11-23"),
        "calls:2026-10".to_owned(),
    ];
    for name in &names {
        s.tenants().set_counter(t, name, 3);
    }
    s.tenants().count_hour(t, Hourly::Sent, 500_000).unwrap();
    s.inner.tenants.counters().write_back().unwrap();
    // A scan in steps of two keys, to carry the cursor.
    let before = chrono::NaiveDate::from_ymd_opt(2026, 11, 22).unwrap();
    let (mut cursor, mut deleted) = (None, 0);
    loop {
        let (next, n) = s.prune_daily_counters(cursor, before, 2).unwrap();
        deleted += n;
        cursor = next;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(deleted, 2);
    let left: Vec<u64> = names.iter().map(|n| s.tenants().counter(t, n).unwrap()).collect();
    assert_eq!(left, [0, 0, 3, 3, 3], "days before the 22nd go; later days and months stay");
    assert_eq!(s.tenants().hours(t, 500_000).unwrap().last().unwrap().sent, 1, "hourly slots stay");
}

async fn writes_are_counted_as_the_send_path_makes_them(place: Place) {
    let s = place.open();
    let (t, p) = (new_id(), new_id());
    let mut m = message(t, Some(p));
    m.tally = vec![("calls:x".into(), 1)];
    let recipient = RecipientRecord { first_at: m.created_at, last_phone: Some(p) };
    let before = s.writes();
    s.accept_message(&m, Some(("+14155550100", &recipient)), None).unwrap();
    // The recipient and the message; its `pending` entry is young, in memory, and the counter
    // is written back later.
    assert_eq!(s.writes() - before, 2);
    assert_eq!(s.tenants().counter(t, "calls:x").unwrap(), 1);
    m.status = MessageStatus::Delivered;
    let before = s.writes();
    s.messages().put(&m).unwrap();
    // The message; its young `pending` entry leaves memory.
    assert_eq!(s.writes() - before, 1);
    assert!(s.messages().pending().unwrap().is_empty());
}

async fn young_work_is_listed_again_after_a_stop(place: Place) {
    let (t, p, w) = (new_id(), new_id(), new_id());
    let queued = message(t, Some(p));
    let delivery = |id: Ulid, state: DeliveryState| delivery(t, w, id, state);
    let (owed, settled) = (new_id(), new_id());
    {
        let s = place.open_as_node();
        s.fleet().acquire(t).unwrap();
        let hook = WebhookRecord {
            id: w,
            tenant_id: t,
            url: "https://example.com/h".into(),
            events: vec!["message.delivered".into()],
            secret: "s".into(),
            previous_secret: None,
            previous_until: None,
            created_at: crate::ts::truncate(Utc::now()),
            enabled: true,
        };
        s.webhooks().put(&hook).unwrap();
        s.accept_message(&queued, None, None).unwrap();
        s.webhooks().put_delivery(&delivery(owed, DeliveryState::Pending)).unwrap();
        s.webhooks().put_delivery(&delivery(settled, DeliveryState::Pending)).unwrap();
        s.webhooks().put_delivery(&delivery(settled, DeliveryState::Succeeded)).unwrap();
        s.commit().await.unwrap();
        // Nothing of it is in the work-list trees yet: all young.
        assert_eq!(s.inner.messages.pending_list().young_len(), 1);
        assert_eq!(s.inner.webhooks.due_list().young_len(), 1);
        // A graceful stop (a node of a fleet lets its leases go; on sled this does nothing).
        s.fleet().release().unwrap();
    }
    // The next node (on sled, the store opened again) finds the young work: on PostgreSQL when
    // it takes the tenant, from the previous node's mark.
    let s = place.open_as_node();
    s.fleet().acquire(t).unwrap();
    let work = s.messages().pending().unwrap();
    assert_eq!(
        work.iter().map(|w| (w.phone_id, w.message_id)).collect::<Vec<_>>(),
        vec![(Some(p), queued.id)]
    );
    let due = s.webhooks().due().unwrap();
    assert_eq!(due.iter().map(|d| (d.webhook_id, d.delivery_id)).collect::<Vec<_>>(), vec![(w, owed)]);
}

async fn a_filtered_page_reads_a_bounded_number_of_messages_and_says_where_it_stopped(place: Place) {
    let s = place.open();
    let t = new_id();
    let mut ids = Vec::new();
    for i in 0..10u64 {
        let mut m = message(t, None);
        m.id = Ulid::from_parts(1_000 + i, 0);
        m.body = if i == 8 { "match".into() } else { "other".into() };
        s.accept_message(&m, None, None).unwrap();
        ids.push(m.id);
    }
    let is_match = |m: &MessageRecord| m.body == "match";
    // Four read, none matched: an empty page and the last id read.
    let (found, stopped) = s.messages().page(t, None, 2, 4, is_match).unwrap();
    assert!(found.is_empty());
    assert_eq!(stopped, Some(ids[3]));
    // Going on from there finds the match, then reads to the end: no cursor.
    let (found, stopped) = s.messages().page(t, stopped, 2, 4, is_match).unwrap();
    assert!(found.is_empty() && stopped == Some(ids[7]));
    let (found, stopped) = s.messages().page(t, stopped, 2, 4, is_match).unwrap();
    assert_eq!((found.iter().map(|m| m.id).collect::<Vec<_>>(), stopped), (vec![ids[8]], None));
    // A page that fills up stops early and needs no cursor of its own.
    let (found, stopped) = s.messages().page(t, None, 3, 100, |_| true).unwrap();
    assert_eq!((found.len(), stopped), (3, None));
    // Reading exactly to the last message is not "cut short".
    let (found, stopped) = s.messages().page(t, Some(ids[5]), 10, 4, |_| true).unwrap();
    assert_eq!((found.len(), stopped), (4, None));
}

async fn hourly_counts_keep_24_hours_and_survive_reopen(place: Place) {
    let (t, other) = (Ulid::generate(), Ulid::generate());
    let h = 500_000;
    {
        let s = place.open();
        for _ in 0..3 {
            s.tenants().count_hour(t, Hourly::Sent, h).unwrap();
        }
        s.tenants().count_hour(t, Hourly::Delivered, h).unwrap();
        s.tenants().count_hour(t, Hourly::Failed, h - 5).unwrap();
        s.tenants().count_hour(other, Hourly::Sent, h).unwrap();
        // A slot 24 hours on starts again from one.
        s.tenants().count_hour(t, Hourly::Failed, h - 30).unwrap();
        s.tenants().count_hour(t, Hourly::Failed, h - 6).unwrap();
    }
    let s = place.open();
    let hours = s.tenants().hours(t, h).unwrap();
    assert_eq!(hours.len(), 24);
    assert_eq!((hours[0].hour, hours[23].hour), (h - 23, h));
    assert_eq!(hours[23], HourCounts { hour: h, sent: 3, delivered: 1, failed: 0 });
    assert_eq!(hours[18].failed, 1);
    assert_eq!(hours[17].failed, 1, "the slot's older hour was replaced");
    assert_eq!(hours.iter().map(|h| h.sent + h.delivered + h.failed).sum::<u64>(), 6);
    // A day later every slot is stale.
    assert!(s.tenants().hours(t, h + 24).unwrap().iter().all(|h| h.sent + h.delivered + h.failed == 0));
}

mod backup;
mod media;
mod spans;
