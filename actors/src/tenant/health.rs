//! The tenant's phones' health as the tenant sees it: `phone.offline` / `phone.online` when an
//! agent stops polling or comes back (or a sim is switched), a message its phone could not send
//! moved to another phone, and a phone that failed five in a row taken out of rotation.
//!
//! What each change last announced is on the phone's record (`announced_online`), written with
//! the event's deliveries, so a change is announced once, also across restarts and `kill -9`.

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{MessageRecord, MessageStatus, PhoneDriver, RecipientRecord};

use super::phones::sent_counter;
use super::TenantActor;
use crate::durable::durable;
use crate::error::Missing;
use crate::failure::FailureCode;
use crate::phone::{self, DisablePhone, Failover, DISABLE_AFTER};
use crate::webhook::{self, Outbox, PHONE_DISABLED, PHONE_OFFLINE, PHONE_ONLINE};
use crate::EngineError;

/// A message moves to at most this many phones in all.
pub(crate) const MAX_PHONES_PER_MESSAGE: usize = 3;

impl TenantActor {
    /// Announces each agent phone whose online state changed since it was last announced (the
    /// periodic look). An agent's first poll is not news: it is recorded, not announced.
    pub(super) fn sweep_health(&mut self, now: DateTime<Utc>) {
        for i in 0..self.phones.len() {
            let p = &self.phones[i];
            if p.rec.driver != PhoneDriver::Agent {
                continue;
            }
            let online = p.live.is_online(now.timestamp_millis());
            let event = match (p.rec.announced_online, online) {
                (Some(true), false) => Some(PHONE_OFFLINE),
                (Some(false), true) => Some(PHONE_ONLINE),
                (None, true) => None,
                _ => continue,
            };
            if let Err(e) = self.announce(i, event, |rec| rec.announced_online = Some(online), now) {
                log_store_failure!(e, phone_id = %self.phones[i].rec.id, "cannot record a phone's health");
            }
        }
    }

    /// Whether a phone's online state waits to be announced (a tenant does not rest before).
    pub(super) fn health_owed(&self, now: DateTime<Utc>) -> bool {
        self.phones.iter().any(|p| {
            p.rec.driver == PhoneDriver::Agent
                && p.rec.announced_online.is_some_and(|a| a != p.live.is_online(now.timestamp_millis()))
        })
    }

    /// A sim switched by the operator: `phone.offline` or `phone.online`, with the switch.
    pub(super) fn sim_switched(&mut self, i: usize, on: bool, now: DateTime<Utc>) -> Result<(), EngineError> {
        let event = (self.phones[i].rec.announced_online != Some(on)).then_some(if on {
            PHONE_ONLINE
        } else {
            PHONE_OFFLINE
        });
        self.announce(
            i,
            event,
            |rec| {
                rec.sim_online = on;
                rec.announced_online = Some(on);
            },
            now,
        )
    }

    /// Writes phone `i`'s record as `change` leaves it, after `event`'s deliveries (the outbox
    /// rule), and hands them on once both are durable.
    fn announce(
        &mut self,
        i: usize,
        event: Option<&str>,
        change: impl FnOnce(&mut pigeon_storage::model::PhoneRecord),
        now: DateTime<Utc>,
    ) -> Result<(), EngineError> {
        let slot = &mut self.phones[i];
        let mut rec = slot.rec.clone();
        change(&mut rec);
        let mut out = Outbox::default();
        if let Some(event) = event {
            let last_poll = slot.live.last_poll_ms().and_then(DateTime::from_timestamp_millis);
            let body = |id| webhook::phone_payload(event, id, &rec, last_poll, now);
            self.subs.emit_one(&self.store, rec.tenant_id, event, Some(rec.id), None, now, body, &mut out);
        }
        self.store.phones().put(&rec)?;
        slot.live.set_sim_online(rec.sim_online);
        slot.rec = rec;
        if out.is_empty() {
            // Nobody listens: the record alone, on disk at the next flush, asked for now (a
            // `kill -9` before it would announce the change again, or forget a self-disable).
            drop(self.store.commit());
        }
        out.send_after_commit(&self.store);
        Ok(())
    }
}

impl Handler<DisablePhone> for TenantActor {
    type Result = ();

    fn handle(&mut self, msg: DisablePhone, _: &mut Self::Context) {
        let Some(i) = self.phones.iter().position(|p| p.rec.id == msg.phone_id && p.rec.enabled) else {
            return;
        };
        let why = format!(
            "Disabled itself after {DISABLE_AFTER} failures in a row that were the phone's, the last: {}",
            msg.reason
        );
        let now = self.clock.now();
        let change = |rec: &mut pigeon_storage::model::PhoneRecord| {
            rec.enabled = false;
            rec.disabled_reason = Some(why);
        };
        match self.announce(i, Some(PHONE_DISABLED), change, now) {
            Ok(()) => {
                tracing::warn!(phone_id = %msg.phone_id, reason = %msg.reason, "a phone disabled itself")
            }
            Err(e) => log_store_failure!(e, phone_id = %msg.phone_id, "cannot disable a phone"),
        }
    }
}

/// To another usable phone that has not failed it, at most [`MAX_PHONES_PER_MESSAGE`] in all;
/// with none left it fails with the reason.
impl Handler<Failover> for TenantActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, msg: Failover, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let tenant = self.tenant.id;
            let mut m =
                self.store.messages().get(tenant, msg.id)?.ok_or(EngineError::NotFound(Missing::Message))?;
            if !m.status.is_pending() || m.phone_id != Some(msg.from) {
                return Ok((m, None)); // moved or settled already
            }
            let now = self.clock.now();
            let mut tried = m.failed_phones.clone();
            tried.push(msg.from);
            let today = now.date_naive();
            let next = (tried.len() < MAX_PHONES_PER_MESSAGE)
                .then(|| {
                    let candidates = self.phones.iter_mut().map(|p| {
                        let usable = !tried.contains(&p.rec.id) && p.available(now);
                        (p.rec.id, usable.then(|| p.capacity(today)))
                    });
                    super::choose_phone(candidates, None)
                })
                .flatten();
            m.failed_phones = tried;
            m.lease = None;
            let Some(i) = next else {
                phone::fail(&mut m, now, FailureCode::DeliveryFailed, &msg.reason);
                webhook::write_with_events(&self.store, &self.subs, &m, None, now)?;
                return Ok((m, None));
            };
            let slot = &mut self.phones[i];
            m.status = MessageStatus::Queued;
            m.phone_id = Some(slot.rec.id);
            m.from = Some(slot.rec.number.clone());
            slot.sent_today += 1;
            let counter = sent_counter(slot.rec.id, today);
            self.store.tenants().set_counter(tenant, &counter, u64::from(slot.sent_today));
            // The recipient's sticky phone moves with it.
            let first_at = self.store.messages().recipient(tenant, &m.to)?.map_or(now, |r| r.first_at);
            let sticky = RecipientRecord { first_at, last_phone: Some(slot.rec.id) };
            self.store.messages().put_moved(&m, msg.from, &sticky)?;
            tracing::info!(message_id = %m.id, from = %msg.from, to = %slot.rec.id, "moved a message its phone could not send");
            Ok((m, Some(slot.addr.clone())))
        })();
        let written = durable(&self.store, res);
        Box::pin(async move {
            let (m, next) = written.await?;
            if let Some(addr) = next {
                addr.do_send(phone::Enqueue { id: m.id, expires_at: m.expires_at });
            }
            Ok(m)
        })
    }
}
