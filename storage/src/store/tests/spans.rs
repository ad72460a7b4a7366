//! sled only: spans (`spans.rs`). Ids are made at chosen times, so each test says which span
//! holds what.

use super::*;
use std::time::Duration;

fn at(ms: u64, n: u128) -> Ulid {
    Ulid::from_parts(ms, n)
}

fn message_at(t: Ulid, id: Ulid, status: MessageStatus) -> MessageRecord {
    MessageRecord { id, status, ..message(t, Some(new_id())) }
}

/// A round time after the stores' first open (on the system clock), from which the tests' spans
/// begin: 2033-05-18.
const T0: u64 = 2_000_000_000_000;

#[test]
fn a_tenants_messages_read_in_order_across_the_base_tree_and_the_spans_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let t = new_id();
    s.set_span_length(Duration::from_secs(10));
    let ids: Vec<Ulid> = (0..10).map(|i| at(T0 + i * 4_000, 1)).collect();
    for id in &ids {
        s.accept_message(&message_at(t, *id, MessageStatus::Delivered), None, None).unwrap();
    }
    // Another tenant's messages, in the same spans, never show.
    s.accept_message(&message_at(new_id(), at(T0 + 5_000, 2), MessageStatus::Queued), None, None).unwrap();
    assert_eq!(s.span_count(), 4, "10 s spans over 36 s: 4 (messages only)");
    let check = |s: &Store| {
        let (all, _) = s.messages().page(t, None, 100, 100, |_| true).unwrap();
        assert_eq!(all.iter().map(|m| m.id).collect::<Vec<_>>(), ids);
        let (newest, _) = s.messages().page_newest(t, None, 100, 100, |_| true).unwrap();
        assert_eq!(newest.iter().map(|m| m.id).rev().collect::<Vec<_>>(), ids);
        // Pages continue across spans from a cursor.
        let (after, _) = s.messages().page(t, Some(ids[3]), 3, 100, |_| true).unwrap();
        assert_eq!(after.iter().map(|m| m.id).collect::<Vec<_>>(), ids[4..7]);
        let (before, _) = s.messages().page_newest(t, Some(ids[6]), 3, 100, |_| true).unwrap();
        assert_eq!(before.iter().map(|m| m.id).collect::<Vec<_>>(), vec![ids[5], ids[4], ids[3]]);
        for id in &ids {
            assert_eq!(s.messages().get(t, *id).unwrap().unwrap().id, *id);
        }
    };
    check(&s);
    drop(s);
    // The spans are found again at open.
    let s = Store::open(dir.path()).unwrap();
    assert_eq!(s.span_count(), 4);
    check(&s);
}

#[test]
fn retiring_a_span_drops_the_final_records_and_hands_the_others_to_the_base_tree() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let (t, w) = (new_id(), new_id());
    s.set_span_length(Duration::from_secs(10));
    let done = at(T0 + 1_000, 1);
    let queued = at(T0 + 2_000, 1);
    let young = at(T0 + 12_000, 1);
    for (id, status) in
        [(done, MessageStatus::Delivered), (queued, MessageStatus::Queued), (young, MessageStatus::Delivered)]
    {
        s.accept_message(&message_at(t, id, status), None, None).unwrap();
    }
    let (settled, retried) = (at(T0 + 3_000, 1), at(T0 + 4_000, 1));
    s.webhooks().put_delivery(&delivery(t, w, settled, DeliveryState::Succeeded)).unwrap();
    s.webhooks().put_delivery(&delivery(t, w, retried, DeliveryState::Failed)).unwrap();

    // Not before the span's time is over.
    assert_eq!(s.retire_spans(at(T0 + 9_999, 0), 100).unwrap(), (0, 0, false));
    // A scan of one record a step: the delivery read as failed is retried before the scan
    // ends; the retirement must see the change, not drop a pending delivery.
    let cutoff = at(T0 + 10_000, 0);
    assert_eq!(s.retire_spans(cutoff, 1).unwrap(), (0, 0, true));
    assert_eq!(s.retire_spans(cutoff, 1).unwrap(), (0, 0, true), "both deliveries read");
    s.webhooks().put_delivery(&delivery(t, w, retried, DeliveryState::Pending)).unwrap();
    let (mut messages, mut deliveries) = (0, 0);
    loop {
        let (m, d, more) = s.retire_spans(cutoff, 1).unwrap();
        (messages, deliveries) = (messages + m, deliveries + d);
        if !more {
            break;
        }
    }
    assert_eq!((messages, deliveries), (1, 1));
    assert_eq!(s.span_count(), 1, "the young message's span stays");
    assert_eq!(s.messages().get(t, done).unwrap(), None);
    assert_eq!(s.messages().get(t, queued).unwrap().unwrap().status, MessageStatus::Queued);
    assert!(s.messages().get(t, young).unwrap().is_some());
    assert_eq!(s.webhooks().delivery(t, w, settled).unwrap(), None);
    assert_eq!(s.webhooks().delivery(t, w, retried).unwrap().unwrap().state, DeliveryState::Pending);
    let (all, _) = s.messages().page(t, None, 10, 10, |_| true).unwrap();
    assert_eq!(all.iter().map(|m| m.id).collect::<Vec<_>>(), vec![queued, young]);

    // What the base tree now holds is written there, and found again after a stop (the
    // retired trees are dropped at open if the sweeper had not dropped them yet).
    let mut sent = message_at(t, queued, MessageStatus::Sent);
    sent.phone_id = s.messages().get(t, queued).unwrap().unwrap().phone_id;
    s.messages().put(&sent).unwrap();
    drop(s);
    let s = Store::open(dir.path()).unwrap();
    assert_eq!(s.span_count(), 1);
    assert_eq!(s.messages().get(t, queued).unwrap().unwrap().status, MessageStatus::Sent);
    assert_eq!(s.webhooks().delivery(t, w, retried).unwrap().unwrap().state, DeliveryState::Pending);
    assert_eq!(s.messages().get(t, done).unwrap(), None);
    let (all, _) = s.messages().page(t, None, 10, 10, |_| true).unwrap();
    assert_eq!(all.iter().map(|m| m.id).collect::<Vec<_>>(), vec![queued, young]);
    // A late write to the retired time goes to the base tree, not to a new span.
    s.accept_message(&message_at(t, at(T0 + 5_000, 9), MessageStatus::Queued), None, None).unwrap();
    assert_eq!(s.span_count(), 1);
}

#[test]
fn a_copy_left_in_the_base_tree_by_a_retirement_cut_short_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let t = new_id();
    s.set_span_length(Duration::from_secs(10));
    let id = at(T0 + 1_000, 1);
    s.accept_message(&message_at(t, id, MessageStatus::Queued), None, None).unwrap();
    // A crash after the copy, before the floor was raised: the base tree holds an old copy,
    // and the span (still authoritative) the newer record.
    s.messages()
        .tree()
        .base()
        .0
        .insert(tkey(t, &id.to_bytes()), encode(&message_at(t, id, MessageStatus::Queued)))
        .unwrap();
    s.messages()
        .put(&MessageRecord { status: MessageStatus::Sent, ..s.messages().get(t, id).unwrap().unwrap() })
        .unwrap();
    let (all, _) = s.messages().page(t, None, 10, 10, |_| true).unwrap();
    assert_eq!(all.iter().map(|m| (m.id, m.status)).collect::<Vec<_>>(), vec![(id, MessageStatus::Sent)]);
    let (all, _) = s.messages().page_newest(t, None, 10, 10, |_| true).unwrap();
    assert_eq!(all.len(), 1);
    // The retirement that runs again copies the newer record over it.
    loop {
        if !s.retire_spans(at(T0 + 20_000, 0), 100).unwrap().2 {
            break;
        }
    }
    assert_eq!(s.span_count(), 0);
    assert_eq!(s.messages().get(t, id).unwrap().unwrap().status, MessageStatus::Sent);
}

#[test]
fn records_from_before_spans_stay_in_the_base_tree_and_go_key_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let t = new_id();
    // Made a day before the store first opened with spans: where a store from before them
    // keeps everything.
    let day_ago = Utc::now().timestamp_millis() as u64 - 86_400_000;
    let (old_done, old_queued) = (at(day_ago, 1), at(day_ago, 2));
    s.accept_message(&message_at(t, old_done, MessageStatus::Delivered), None, None).unwrap();
    s.accept_message(&message_at(t, old_queued, MessageStatus::Queued), None, None).unwrap();
    assert_eq!(s.span_count(), 0, "nothing went to a span");
    let now = s.new_id();
    s.accept_message(&message_at(t, now, MessageStatus::Delivered), None, None).unwrap();
    assert_eq!(s.span_count(), 1);
    drop(s);
    let s = Store::open(dir.path()).unwrap();
    let (all, _) = s.messages().page(t, None, 10, 10, |_| true).unwrap();
    assert_eq!(all.iter().map(|m| m.id).collect::<Vec<_>>(), vec![old_done, old_queued, now]);
    // Nothing of theirs is in a span to retire; the key-by-key sweep deletes the final one.
    let cutoff = at(day_ago + 1_000, 0);
    assert_eq!(s.retire_spans(cutoff, 100).unwrap(), (0, 0, false));
    assert_eq!(s.prune_messages(t, cutoff, 100).unwrap(), 1);
    let (all, _) = s.messages().page(t, None, 10, 10, |_| true).unwrap();
    assert_eq!(all.iter().map(|m| m.id).collect::<Vec<_>>(), vec![old_queued, now]);
}

#[test]
fn dropped_spans_of_many_pages_leave_the_other_trees_whole_and_their_names_gone() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let t = new_id();
    s.set_span_length(Duration::from_secs(10));
    // Three rounds of 30k messages over three spans each (trees of several levels), each round's
    // spans retired and dropped before the next: pages freed, then allocated again.
    let keep = at(T0 + 1_000_000, 1);
    s.accept_message(&message_at(t, keep, MessageStatus::Queued), None, None).unwrap();
    for round in 0..3u64 {
        let from = T0 + round * 30_000;
        for i in 0..30_000u64 {
            let id = at(from + i, u128::from(i));
            s.accept_message(&message_at(t, id, MessageStatus::Delivered), None, None).unwrap();
        }
        let mut gone = 0;
        loop {
            let (m, _, more) = s.retire_spans(at(from + 30_000, 0), 100_000).unwrap();
            gone += m;
            if !more {
                break;
            }
        }
        assert_eq!(gone, 30_000, "round {round}");
        // The next step drops what was retired.
        s.retire_spans(at(from + 30_000, 0), 1).unwrap();
        let engine_trees = match &s.inner.engine {
            tree::Engine::Sled(db) => db.tree_names(),
            tree::Engine::Pg(_) => unreachable!(),
        };
        let spans: Vec<String> = engine_trees
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .filter(|n| n.starts_with("messages@"))
            .collect();
        assert_eq!(spans.len(), 1, "only the kept message's span is left: {spans:?}");
    }
    drop(s);
    let s = Store::open(dir.path()).unwrap();
    let (all, _) = s.messages().page(t, None, 10, 100_000, |_| true).unwrap();
    assert_eq!(all.iter().map(|m| m.id).collect::<Vec<_>>(), vec![keep]);
    assert!(s.tenants().page(None, 10).is_ok());
}
