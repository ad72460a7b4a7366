//! The outbox: a state change's deliveries are written before the change itself, and handed to
//! their endpoints' actors only once a group commit has made both durable, so a recorded change
//! always has its deliveries, every pending delivery has its `due` entry, and a receiver never
//! hears of a state a crash then undoes. (Handed on at once, a delivery could go out before the
//! flush; a `kill -9` then lost the state, the work was redone after the restart and announced
//! again under a new `event_id`, or announced `failed` and then `delivered`.)

use std::sync::{Arc, RwLock};

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{DeliveryRecord, DeliveryState, MessageRecord, WebhookRecord};
use pigeon_storage::Store;
use ulid::Ulid;

use super::actor::{Deliver, WebhookActor};
use super::event::{event_of, payload};

/// A tenant's endpoints with their actors; shared by the tenant actor (writer) and its phone
/// actors (readers), which emit events.
#[derive(Clone, Default)]
pub struct Subscribers(Arc<RwLock<Vec<Subscription>>>);

/// An endpoint and the actor that delivers to it.
type Subscription = (WebhookRecord, Addr<WebhookActor>);

impl Subscribers {
    pub(crate) fn add(&self, w: WebhookRecord, addr: Addr<WebhookActor>) {
        self.0.write().unwrap().push((w, addr));
    }

    pub(crate) fn remove(&self, id: Ulid) -> Option<(WebhookRecord, Addr<WebhookActor>)> {
        let mut v = self.0.write().unwrap();
        let i = v.iter().position(|(w, _)| w.id == id)?;
        Some(v.remove(i))
    }

    /// Replaces an endpoint's record (a rotated secret); its actor is told separately.
    pub(crate) fn replace(&self, w: WebhookRecord) {
        if let Some(slot) = self.0.write().unwrap().iter_mut().find(|(old, _)| old.id == w.id) {
            slot.0 = w;
        }
    }

    /// An endpoint's record.
    pub(crate) fn get(&self, id: Ulid) -> Option<WebhookRecord> {
        self.0.read().unwrap().iter().find(|(w, _)| w.id == id).map(|(w, _)| w.clone())
    }

    /// Every endpoint's id and actor.
    pub(crate) fn entries(&self) -> Vec<(Ulid, Addr<WebhookActor>)> {
        self.0.read().unwrap().iter().map(|(w, a)| (w.id, a.clone())).collect()
    }

    pub(crate) fn list(&self) -> Vec<WebhookRecord> {
        self.0.read().unwrap().iter().map(|(w, _)| w.clone()).collect()
    }

    pub(crate) fn addr(&self, id: Ulid) -> Option<Addr<WebhookActor>> {
        self.0.read().unwrap().iter().find(|(w, _)| w.id == id).map(|(_, a)| a.clone())
    }

    /// Writes one delivery per endpoint subscribed to the event `m`'s state makes. Call before
    /// writing `m` itself, then [`Outbox::send_after_commit`] once `m` is written.
    pub(crate) fn emit(&self, store: &Store, m: &MessageRecord, now: DateTime<Utc>) -> Outbox {
        let Some(event) = event_of(m) else { return Outbox(Vec::new()) };
        let subs = self.0.read().unwrap();
        if subs.iter().all(|(w, _)| !w.events.iter().any(|e| e == event)) {
            return Outbox(Vec::new());
        }
        let event_id = store.new_id();
        let body = payload(event, event_id, m, now);
        let mut out = Vec::new();
        for (w, addr) in subs.iter().filter(|(w, _)| w.events.iter().any(|e| e == event)) {
            let d = DeliveryRecord {
                id: store.new_id(),
                tenant_id: m.tenant_id,
                webhook_id: w.id,
                event_id,
                event: event.into(),
                payload: body.clone(),
                state: DeliveryState::Pending,
                cycle: 0,
                attempts: Vec::new(),
                next_attempt_at: Some(now),
                created_at: now,
            };
            match store.webhooks().put_delivery(&d) {
                Ok(()) => out.push((addr.clone(), d.id)),
                Err(e) => log_store_failure!(e, "cannot write a webhook delivery"),
            }
        }
        Outbox(out)
    }
}

/// Writes a message's new state with the deliveries it causes (deliveries first: the outbox rule),
/// then hands them to their endpoints once both are durable. Every fate passes here, so here it
/// is counted in the tenant's hourly counts too. Call from an actor (the wait runs on its arbiter).
pub(crate) fn write_with_events(
    store: &Store,
    subs: &Subscribers,
    m: &MessageRecord,
    now: DateTime<Utc>,
) -> Result<(), pigeon_storage::StoreError> {
    let outbox = subs.emit(store, m, now);
    // Counted first, so whoever sees the new state sees it counted.
    count_hour(store, m, now);
    store.messages().put(m)?;
    outbox.send_after_commit(store);
    Ok(())
}

/// Counts a new `sent`, `delivered` or `failed` state in its hour. A message delivered without a
/// `sent` report before (sims, agents reporting straight away) left its phone too.
fn count_hour(store: &Store, m: &MessageRecord, now: DateTime<Utc>) {
    use pigeon_storage::model::MessageStatus::*;
    use pigeon_storage::Hourly;
    let kinds: &[Hourly] = match m.status {
        Sent => &[Hourly::Sent],
        Delivered if m.sent_at == m.delivered_at => &[Hourly::Sent, Hourly::Delivered],
        Delivered => &[Hourly::Delivered],
        Failed => &[Hourly::Failed],
        _ => return,
    };
    let hour = crate::clock::hour_number(now);
    for kind in kinds {
        if let Err(e) = store.tenants().count_hour(m.tenant_id, *kind, hour) {
            log_store_failure!(e, "cannot count a message in its hour");
        }
    }
}

/// Deliveries written and waiting to be handed to their endpoints' actors.
#[must_use]
pub(crate) struct Outbox(Vec<(Addr<WebhookActor>, Ulid)>);

impl Outbox {
    /// Hands the deliveries on once a commit queued now (after the state change that made them
    /// was written) resolves; the commit is shared with every other writer of its flush. If it
    /// fails (a full disk), nothing is announced: the node restarts once it can write again and
    /// finds on disk whatever survived, deliveries and state together.
    pub(crate) fn send_after_commit(self, store: &Store) {
        if self.0.is_empty() {
            return;
        }
        let durable = store.commit();
        actix::spawn(async move {
            if durable.await.is_ok() {
                for (addr, id) in self.0 {
                    addr.do_send(Deliver(id));
                }
            }
        });
    }
}
