//! The operator's phones, as the tenant actor keeps them: each phone's record, its daily
//! capacity (the tenant actor owns it, so a phone's choice and its count change together) and its
//! actor; adding, changing and removing phones.

use std::sync::Arc;

use actix::prelude::*;
use chrono::{DateTime, NaiveDate, Utc};
use pigeon_storage::model::{PhoneDriver, PhoneRecord, SimSettings};
use pigeon_storage::Store;
use ulid::Ulid;

use super::TenantActor;
use crate::clock::SharedClock;
use crate::domain::PhoneNumber;
use crate::durable::after_commit;
use crate::error::Missing;
use crate::phone::{self, PhoneActor, PhoneLive};
use crate::registry::{PhoneEntry, Shared};
use crate::webhook::Subscribers;
use crate::{credentials, EngineError};

/// A phone as the tenant actor sees it: the record, today's use, and its actor.
pub(crate) struct PhoneSlot {
    pub(crate) rec: PhoneRecord,
    pub(super) sent_today: u32,
    day: NaiveDate,
    pub(super) live: Arc<PhoneLive>,
    pub(super) addr: Addr<PhoneActor>,
}

pub(crate) fn sent_counter(phone: Ulid, day: NaiveDate) -> String {
    format!("phone_sent:{phone}:{day}")
}

impl PhoneSlot {
    /// Starts the phone's actor on `arbiter` and registers it for agent calls.
    pub(crate) fn start(
        store: &Store,
        clock: &SharedClock,
        rec: PhoneRecord,
        shared: &Shared,
        subs: &Subscribers,
        arbiter: &ArbiterHandle,
    ) -> Result<Self, EngineError> {
        let registry = &shared.phones;
        let day = clock.now().date_naive();
        let sent_today = store.tenants().counter(rec.tenant_id, &sent_counter(rec.id, day))? as u32;
        let last_poll = match rec.driver {
            PhoneDriver::Agent => {
                Some(store.tenants().counter(rec.tenant_id, &phone::polled_counter(rec.id))? as i64)
                    .filter(|ms| *ms > 0)
            }
            PhoneDriver::Sim => None,
        };
        let live = PhoneLive::new(&rec, last_poll);
        let scheduler = shared.scheduler.clone();
        let actor =
            PhoneActor::new(store.clone(), clock.clone(), &rec, live.clone(), subs.clone(), scheduler);
        let addr = PhoneActor::start_in_arbiter(arbiter, move |_| actor);
        registry
            .write()
            .unwrap()
            .insert(rec.id, PhoneEntry { tenant_id: rec.tenant_id, addr: addr.clone(), live: live.clone() });
        Ok(Self { rec, sent_today, day, live, addr })
    }

    /// Messages it may still take today.
    pub(super) fn capacity(&mut self, today: NaiveDate) -> u32 {
        if self.day != today {
            self.day = today;
            self.sent_today = 0;
        }
        self.rec.daily_limit.saturating_sub(self.sent_today)
    }

    /// Enabled, online and under its daily limit.
    pub(super) fn available(&mut self, now: DateTime<Utc>) -> bool {
        self.rec.enabled && self.live.is_online(now.timestamp_millis()) && self.capacity(now.date_naive()) > 0
    }

    /// Online but at its daily limit: it takes messages again at UTC midnight.
    pub(super) fn spent(&mut self, now: DateTime<Utc>) -> bool {
        self.live.is_online(now.timestamp_millis()) && self.capacity(now.date_naive()) == 0
    }

    pub(super) fn view(&mut self, now: DateTime<Utc>) -> PhoneView {
        PhoneView {
            online: self.live.is_online(now.timestamp_millis()),
            last_poll_at: self.live.last_poll_ms().and_then(chrono::DateTime::from_timestamp_millis),
            agent: self.live.agent(),
            sent_today: if self.day == now.date_naive() { self.sent_today } else { 0 },
            record: self.rec.clone(),
        }
    }
}

/// A phone with its live state.
#[derive(Debug, Clone)]
pub struct PhoneView {
    /// The record.
    pub record: PhoneRecord,
    /// Online now.
    pub online: bool,
    /// An agent's last call (none for a sim, or an agent never heard from).
    pub last_poll_at: Option<DateTime<Utc>>,
    /// An agent's `User-Agent` since the node started (`pigeon-agent/0.1.0`).
    pub agent: Option<String>,
    /// Messages assigned to it today (UTC).
    pub sent_today: u32,
}

/// The operator adds a phone.
#[derive(Message, Clone)]
#[rtype(result = "Result<(PhoneView, Option<String>), EngineError>")]
pub(crate) struct AddPhone {
    pub number: PhoneNumber,
    pub daily_limit: u32,
    pub driver: PhoneDriver,
    pub sim: SimSettings,
}

/// Prefix of agent tokens.
const AGENT_PREFIX: &str = "svc_agent_";

impl Handler<AddPhone> for TenantActor {
    type Result = ResponseFuture<Result<(PhoneView, Option<String>), EngineError>>;

    fn handle(&mut self, msg: AddPhone, ctx: &mut Self::Context) -> Self::Result {
        let res = (|| {
            if self.phones.iter().any(|p| p.rec.number == msg.number.as_str()) {
                return Err(EngineError::Validation(
                    "number: the tenant already has a phone with this number".into(),
                ));
            }
            let now = self.clock.now();
            let token = (msg.driver == PhoneDriver::Agent).then(|| credentials::generate(AGENT_PREFIX));
            let rec = PhoneRecord {
                id: self.store.new_id(),
                tenant_id: self.tenant.id,
                number: msg.number.as_str().to_owned(),
                daily_limit: msg.daily_limit,
                driver: msg.driver,
                sim: msg.sim,
                enabled: true,
                sim_online: msg.driver == PhoneDriver::Sim,
                agent_token_hash: token.as_deref().map(credentials::hash),
                created_at: now,
                // A sim starts online; an agent is online once it first polls.
                announced_online: (msg.driver == PhoneDriver::Sim).then_some(true),
                disabled_reason: None,
            };
            self.store.phones().put(&rec)?;
            let arbiter = self.shared.arbiters.for_id(rec.id);
            let mut slot =
                PhoneSlot::start(&self.store, &self.clock, rec, &self.shared, &self.subs, arbiter)?;
            let view = slot.view(now);
            slot.addr.do_send(phone::Owner(super::owner(ctx)));
            self.phones.push(slot);
            // Most tenants have a phone or two: no room kept for four (every running tenant
            // carries this).
            self.phones.shrink_to_fit();
            Ok((view, token))
        })();
        after_commit(&self.store, res)
    }
}

/// The tenant's phones with live state.
#[derive(Message, Clone)]
#[rtype(result = "Vec<PhoneView>")]
pub(crate) struct ListPhones;

impl Handler<ListPhones> for TenantActor {
    type Result = MessageResult<ListPhones>;

    fn handle(&mut self, _: ListPhones, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        MessageResult(self.phones.iter_mut().map(|p| p.view(now)).collect())
    }
}

/// The operator's changes to a phone.
#[derive(Message, Clone)]
#[rtype(result = "Result<PhoneView, EngineError>")]
pub(crate) struct UpdatePhone {
    pub id: Ulid,
    pub daily_limit: Option<u32>,
    pub enabled: Option<bool>,
    pub online: Option<bool>,
}

impl Handler<UpdatePhone> for TenantActor {
    type Result = ResponseFuture<Result<PhoneView, EngineError>>;

    fn handle(&mut self, msg: UpdatePhone, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        let res = (|| {
            let slot = self
                .phones
                .iter_mut()
                .find(|p| p.rec.id == msg.id)
                .ok_or(EngineError::NotFound(Missing::Phone))?;
            if msg.online.is_some() && slot.rec.driver != PhoneDriver::Sim {
                return Err(EngineError::Validation(
                    "online: only sim phones have an online switch; an agent is online while it polls".into(),
                ));
            }
            let mut rec = slot.rec.clone();
            if let Some(v) = msg.daily_limit {
                rec.daily_limit = v;
            }
            if let Some(v) = msg.enabled {
                rec.enabled = v;
                if v {
                    rec.disabled_reason = None;
                }
            }
            self.store.phones().put(&rec)?;
            slot.rec = rec;
            slot.addr.do_send(phone::Reconfigure { sim: slot.rec.sim });
            let i = self.phones.iter().position(|p| p.rec.id == msg.id).expect("found above");
            if let Some(on) = msg.online.filter(|on| *on != self.phones[i].rec.sim_online) {
                self.sim_switched(i, on, now)?;
                self.phones[i].addr.do_send(phone::Reconfigure { sim: self.phones[i].rec.sim });
            }
            Ok(self.phones[i].view(now))
        })();
        after_commit(&self.store, res)
    }
}

/// The operator deletes a phone.
#[derive(Message, Clone)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct RemovePhone(pub Ulid);

impl Handler<RemovePhone> for TenantActor {
    type Result = ResponseFuture<Result<(), EngineError>>;

    fn handle(&mut self, msg: RemovePhone, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let i = self
                .phones
                .iter()
                .position(|p| p.rec.id == msg.0)
                .ok_or(EngineError::NotFound(Missing::Phone))?;
            self.store.phones().delete(&self.phones[i].rec)?;
            let slot = self.phones.remove(i);
            self.shared.phones.write().unwrap().remove(&slot.rec.id);
            slot.addr.do_send(phone::Retire);
            Ok(())
        })();
        after_commit(&self.store, res)
    }
}
