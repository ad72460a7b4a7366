//! The outbox: a state change's deliveries are written before the change itself, and handed to
//! their endpoints' actors only once a group commit has made both durable, so a recorded change
//! always has its deliveries, every pending delivery has its `due` entry, and a receiver never
//! hears of a state a crash then undoes. (Handed on at once, a delivery could go out before the
//! flush; a `kill -9` then lost the state, the work was redone after the restart and announced
//! again under a new `event_id`, or announced `failed` and then `delivered`.)

use std::sync::{Arc, RwLock};

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{
    DeliveryRecord, DeliveryState, EventRecord, MessageRecord, MessageStatus, WebhookRecord,
};
use pigeon_storage::Store;
use ulid::Ulid;

use super::actor::{Deliver, WebhookActor};
use super::event::{events_of, payload};

/// A tenant's endpoints with their actors; shared by the tenant actor (writer) and its phone
/// actors (readers), which emit events; and the link signer the events' attachments need.
#[derive(Clone)]
pub struct Subscribers(Arc<RwLock<Vec<Subscription>>>, Arc<crate::media::Links>);

/// An endpoint and the actor that delivers to it (none while it is disabled).
type Subscription = (WebhookRecord, Option<Addr<WebhookActor>>);

impl Subscribers {
    pub(crate) fn new(links: Arc<crate::media::Links>) -> Self {
        Self(Arc::default(), links)
    }

    pub(crate) fn add(&self, w: WebhookRecord, addr: Option<Addr<WebhookActor>>) {
        self.0.write().unwrap().push((w, addr));
    }

    pub(crate) fn remove(&self, id: Ulid) -> Option<Subscription> {
        let mut v = self.0.write().unwrap();
        let i = v.iter().position(|(w, _)| w.id == id)?;
        Some(v.remove(i))
    }

    /// Replaces an endpoint's record and its actor (a changed URL or events, turned on or off).
    pub(crate) fn replace(&self, w: WebhookRecord, addr: Option<Addr<WebhookActor>>) {
        if let Some(slot) = self.0.write().unwrap().iter_mut().find(|(old, _)| old.id == w.id) {
            *slot = (w, addr);
        }
    }

    /// An endpoint's record.
    pub(crate) fn get(&self, id: Ulid) -> Option<WebhookRecord> {
        self.0.read().unwrap().iter().find(|(w, _)| w.id == id).map(|(w, _)| w.clone())
    }

    /// Every running endpoint actor, by webhook id.
    pub(crate) fn entries(&self) -> Vec<(Ulid, Addr<WebhookActor>)> {
        self.0.read().unwrap().iter().filter_map(|(w, a)| Some((w.id, a.clone()?))).collect()
    }

    pub(crate) fn list(&self) -> Vec<WebhookRecord> {
        self.0.read().unwrap().iter().map(|(w, _)| w.clone()).collect()
    }

    /// An enabled endpoint's actor.
    pub(crate) fn addr(&self, id: Ulid) -> Option<Addr<WebhookActor>> {
        self.0.read().unwrap().iter().find(|(w, _)| w.id == id).and_then(|(_, a)| a.clone())
    }

    /// Writes one delivery per endpoint subscribed to each event `m`'s move from `before` makes.
    /// Call before writing `m` itself, then [`Outbox::send_after_commit`] once `m` is written.
    pub(crate) fn emit(
        &self,
        store: &Store,
        m: &MessageRecord,
        before: Option<MessageStatus>,
        now: DateTime<Utc>,
    ) -> Outbox {
        let mut out = Outbox(Vec::new());
        for event in events_of(before, m) {
            self.emit_one(
                store,
                m.tenant_id,
                event,
                Some(m.id),
                Some(m.test),
                now,
                |id| payload(event, id, m, &self.1, now),
                &mut out,
            );
        }
        out
    }

    /// Appends `event` to the tenant's event log (`GET /v1/events`) and writes one delivery of it
    /// per endpoint subscribed to it, the payload made once. `subject` is what the event is about
    /// (a message, a phone): its events reach an endpoint in order; `test` the mode of its
    /// message (`None`: no message, both modes see it).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn emit_one(
        &self,
        store: &Store,
        tenant_id: Ulid,
        event: &str,
        subject: Option<Ulid>,
        test: Option<bool>,
        now: DateTime<Utc>,
        body: impl FnOnce(Ulid) -> String,
        out: &mut Outbox,
    ) {
        let logged = store.events().append(
            tenant_id,
            || store.new_id(),
            |id| EventRecord { event: event.into(), test, payload: body(id) },
        );
        let (event_id, EventRecord { payload: body, .. }) = match logged {
            Ok(e) => e,
            Err(e) => {
                log_store_failure!(e, "cannot write an event");
                return;
            }
        };
        let subs = self.0.read().unwrap();
        let listens =
            |(w, a): &&Subscription| a.is_some() && w.enabled && w.events.iter().any(|e| e == event);
        for (w, addr) in subs.iter().filter(listens) {
            let Some(addr) = addr else { continue };
            let d = DeliveryRecord {
                id: store.new_id(),
                tenant_id,
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
                Ok(()) => out.0.push((addr.clone(), Deliver { id: d.id, subject })),
                Err(e) => log_store_failure!(e, "cannot write a webhook delivery"),
            }
        }
    }
}

/// Writes a message's new state with the deliveries its move from `before` causes (see
/// [`events_of`]; deliveries first: the outbox rule),
/// then hands them to their endpoints once both are durable. Every fate passes here, so here it
/// is counted in the tenant's hourly counts too. Call from an actor (the wait runs on its arbiter).
pub(crate) fn write_with_events(
    store: &Store,
    subs: &Subscribers,
    m: &MessageRecord,
    before: Option<MessageStatus>,
    now: DateTime<Utc>,
) -> Result<(), pigeon_storage::StoreError> {
    let outbox = subs.emit(store, m, before, now);
    // Counted first, so whoever sees the new state sees it counted.
    count_hour(store, m, before, now);
    store.messages().put(m)?;
    count_fate(m, before);
    outbox.send_after_commit(store);
    Ok(())
}

/// Counts a message that has just reached a final status in `pigeon_messages_total{status}`;
/// one read without a delivery report passed `delivered` too, as its events say.
pub(crate) fn count_fate(m: &MessageRecord, before: Option<MessageStatus>) {
    use MessageStatus::{Delivered, Read};
    if !m.status.is_final() || before == Some(m.status) {
        return;
    }
    if m.status == Read && before != Some(Delivered) {
        metrics::counter!("pigeon_messages_total", "status" => Delivered.as_str()).increment(1);
    }
    metrics::counter!("pigeon_messages_total", "status" => m.status.as_str()).increment(1);
}

/// Counts a move into `sent`, `delivered` or `failed` in its hour, with the states it passed (a
/// message delivered straight from `sending` left its phone too; one read from `sent` arrived).
fn count_hour(store: &Store, m: &MessageRecord, before: Option<MessageStatus>, now: DateTime<Utc>) {
    use pigeon_storage::Hourly;
    use MessageStatus::*;
    let kinds: &[Hourly] = match (before, m.status) {
        (Some(b), s) if b == s => return,
        (_, Sent) => &[Hourly::Sent],
        (Some(Sent), Delivered | Read) => &[Hourly::Delivered],
        (Some(Delivered), Read) => return,
        (_, Delivered) | (_, Read) => &[Hourly::Sent, Hourly::Delivered],
        (_, Failed) => &[Hourly::Failed],
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
#[derive(Default)]
pub(crate) struct Outbox(Vec<(Addr<WebhookActor>, Deliver)>);

impl Outbox {
    /// No delivery written.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

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
                for (addr, d) in self.0 {
                    addr.do_send(d);
                }
            }
        });
    }
}
