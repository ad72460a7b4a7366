//! Passivation: a tenant with no work for `actor_idle` stops its actor, its phones' and its
//! webhooks', and the engine forgets it; its next call starts them again from the store, as on
//! first use. Memory then follows the tenants that are active, not every tenant ever seen.
//!
//! What must not change across it, and why it does not:
//! - Everything a tenant sees is in the store already (keys, counters, sticky senders, opt-outs,
//!   idempotency keys, detections), except `last_used_at`, written before the actor lets go,
//!   and the rate limiters, which live in memory: a tenant rests only once every limiter it
//!   checked is full again (the `X-RateLimit-Reset` it last answered has passed), so a fresh
//!   limiter is the same one. One call on a 50-a-minute key is whole again in about 2 s; a key
//!   at its limit, in a minute.
//! - Work in flight pins the tenant: a running campaign, a held message, a queued, leased or
//!   recovering message, a sim delivery under way, an agent waiting in a poll or online (it
//!   polled in the last 30 s: a new phone actor would start offline), a detection question, a
//!   webhook delivery not settled.
//! - Nothing is lost or answered twice. The decision is taken in a turn that freezes the mailbox
//!   (`ctx.wait`) from the last check to the stop, so the state checked is the state left. A
//!   request that lands in the mailbox meanwhile is dropped unhandled when the actor stops; its
//!   sender sees `Closed` and sends it again to the successor ([`crate::TenantHandle`] and
//!   `AgentHandle` do; a scheduler release goes through the same path). Handlers never stop the
//!   actor mid-request: async answers run as detached futures (`ResponseFuture`), not in the
//!   actor.

use std::sync::atomic::Ordering;

use actix::prelude::*;
use chrono::{DateTime, Utc};

use super::{TenantActor, PERSIST_EVERY};
use crate::phone;
use crate::scheduler::HeldFor;
use pigeon_storage::model::PhoneDriver;

/// How often an actor asks itself whether it may rest: a quarter of the idle time, from 100 ms
/// (short idle times in tests are noticed promptly) to 1 s (the default ten minutes). The same
/// timer writes `last_used_at` back, which must happen at least every [`PERSIST_EVERY`], and
/// announces its phones' health changes, which a second late is still prompt.
pub(super) fn check_every(idle: std::time::Duration) -> std::time::Duration {
    (idle / 4)
        .clamp(std::time::Duration::from_millis(100), PERSIST_EVERY.min(std::time::Duration::from_secs(1)))
}

impl TenantActor {
    /// Notes work: the idle time starts again.
    pub(crate) fn active(&mut self, now: DateTime<Utc>) {
        self.last_active = now;
    }

    /// Notes a rate check that answered `reset`: its limiter is whole again `reset` seconds on.
    pub(super) fn rate_checked(&mut self, now: DateTime<Utc>, reset: u64) {
        let full = now + chrono::TimeDelta::seconds(reset.min(3_600) as i64);
        self.limiters_full_at = Some(self.limiters_full_at.map_or(full, |t| t.max(full)));
    }

    /// What the actor itself knows: idle long enough, limiters whole, no campaign running, no
    /// agent online.
    fn may_rest(&self, now: DateTime<Utc>) -> bool {
        let idle = chrono::TimeDelta::from_std(self.shared.actor_idle).unwrap_or(chrono::TimeDelta::MAX);
        now - self.last_active >= idle
            && self.limiters_full_at.is_none_or(|t| now >= t)
            // A finished runner stops itself; its address stays until a cancel looks.
            && !self.runners.values().any(Addr::connected)
            && !self
                .phones
                .iter()
                .any(|p| p.rec.driver == PhoneDriver::Agent && p.live.is_online(now.timestamp_millis()))
            && !self.health_owed(now)
    }

    /// The periodic look: when the actor may rest, it asks itself in its mailbox's turn, behind
    /// whatever is already queued.
    pub(super) fn consider_rest(&mut self, ctx: &mut Context<Self>) {
        if !self.rest_asked && self.may_rest(self.clock.now()) {
            self.rest_asked = true;
            ctx.address().do_send(Rest);
        }
    }

    /// Stops this tenant's actors. Called with the mailbox frozen and everything found idle.
    fn passivate(&mut self, ctx: &mut Context<Self>) {
        // Written before the engine forgets this actor: its successor reads them.
        self.persist_last_used();
        let me = ctx.address();
        let id = self.tenant.id;
        {
            let mut tenants = self.tenants.write().unwrap();
            if tenants.get(&id) != Some(&me) {
                // The engine is shutting down (it emptied the registry): it stops us itself.
                return;
            }
            tenants.remove(&id);
        }
        {
            let mut phones = self.shared.phones.write().unwrap();
            for slot in &self.phones {
                // Only our own entry: a successor may have registered the phone already.
                if phones.get(&slot.rec.id).is_some_and(|e| e.addr == slot.addr) {
                    phones.remove(&slot.rec.id);
                }
                slot.addr.do_send(phone::Rest);
            }
        }
        {
            let mut hooks = self.shared.webhooks.write().unwrap();
            for (w, addr) in self.subs.entries() {
                if hooks.get(&w).is_some_and(|a| *a == addr) {
                    hooks.remove(&w);
                }
                addr.do_send(crate::webhook::Stop);
            }
        }
        self.shared.passivations.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(tenant_id = %id, "tenant passivated");
        ctx.stop();
    }
}

/// Rest if still idle: checks the phones, webhooks and scheduler with the mailbox frozen.
#[derive(Message)]
#[rtype(result = "()")]
pub(super) struct Rest;

impl Handler<Rest> for TenantActor {
    type Result = ();

    fn handle(&mut self, _: Rest, ctx: &mut Self::Context) {
        self.rest_asked = false;
        if !self.may_rest(self.clock.now()) {
            return;
        }
        let phones: Vec<_> = self.phones.iter().map(|p| p.addr.clone()).collect();
        let hooks: Vec<_> = self.subs.entries().into_iter().map(|(_, a)| a).collect();
        let scheduler = self.shared.scheduler.get().cloned();
        let tenant = self.tenant.id;
        let quiet = async move {
            for p in phones {
                if !p.send(phone::IsIdle).await.unwrap_or(false) {
                    return false;
                }
            }
            for h in hooks {
                if h.send(crate::webhook::Depth).await.map_or(true, |n| n > 0) {
                    return false;
                }
            }
            match scheduler {
                Some(s) => s.send(HeldFor(tenant)).await.is_ok_and(|n| n == 0),
                None => true,
            }
        };
        // `wait`: nothing else runs in this actor until the answer, so nothing changes after it.
        ctx.wait(quiet.into_actor(self).map(|quiet, act, ctx| {
            if quiet && act.may_rest(act.clock.now()) {
                act.passivate(ctx);
            }
        }));
    }
}
