//! What the operator and the dashboard read about tenants, phones and the node: from the store
//! and the running actors, so a look wakes no tenant (a passivated one stays at rest).

use std::sync::atomic::Ordering;

use pigeon_storage::model::{PhoneDriver, TenantRecord};
use ulid::Ulid;

use super::{Depths, Engine, Usage};
use crate::clock::month_key;
use crate::error::Missing;
use crate::phone;
use crate::tenant::{sent_counter, PhoneView, CALLS, NEW_CONTACTS};
use crate::EngineError;

impl Engine {
    /// A tenant's record and usage, from the store (the actor writes through to it).
    pub fn tenant_view(&self, id: Ulid) -> Result<(TenantRecord, Usage), EngineError> {
        if !self.inner.store.mine(id) {
            // In a fleet, exact usage is the owner's (the request came here because this node
            // owns the tenant or no node does): a tenant no node owns (its node died) is taken
            // first, which counts what its last node had not yet written back. A tenant this
            // node owns is not woken.
            self.tenant(id)?;
        }
        let t = self.inner.store.tenants().get(id)?.ok_or(EngineError::NotFound(Missing::Tenant))?;
        let usage = self.usage(id)?;
        Ok((t, usage))
    }

    /// A tenant's record as stored, waking no one (a name for a listing).
    pub fn tenant_record(&self, id: Ulid) -> Result<TenantRecord, EngineError> {
        self.inner.store.tenants().get(id)?.ok_or(EngineError::NotFound(Missing::Tenant))
    }

    /// Tenants in creation order after `after`, with usage.
    pub fn list_tenants(
        &self,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<(TenantRecord, Usage)>, EngineError> {
        self.inner
            .store
            .tenants()
            .page(after, limit)?
            .into_iter()
            .map(|t| {
                let u = self.usage(t.id)?;
                Ok((t, u))
            })
            .collect()
    }

    /// Every tenant's phones, tenant by tenant, after the phone `after`, with their state: read
    /// from the store and the running phones, so listing wakes no tenant. A phone whose tenant
    /// has no running actor is offline unless it is a sim switched on.
    pub fn list_phones(&self, after: Option<Ulid>, limit: usize) -> Result<Vec<PhoneView>, EngineError> {
        let now = self.inner.clock.now();
        let day = now.date_naive();
        let running = self.inner.shared.phones.read().unwrap();
        self.inner
            .store
            .phones()
            .page(after, limit)?
            .into_iter()
            .map(|rec| {
                let (online, last_poll_ms, agent) = match running.get(&rec.id) {
                    Some(p) => {
                        (p.live.is_online(now.timestamp_millis()), p.live.last_poll_ms(), p.live.agent())
                    }
                    None => {
                        let saved = match rec.driver {
                            PhoneDriver::Agent => self
                                .inner
                                .store
                                .tenants()
                                .counter(rec.tenant_id, &phone::polled_counter(rec.id))?,
                            PhoneDriver::Sim => 0,
                        };
                        (
                            rec.driver == PhoneDriver::Sim && rec.sim_online,
                            (saved > 0).then_some(saved as i64),
                            None,
                        )
                    }
                };
                let sent = self.inner.store.tenants().counter(rec.tenant_id, &sent_counter(rec.id, day))?;
                Ok(PhoneView {
                    online,
                    last_poll_at: last_poll_ms.and_then(chrono::DateTime::from_timestamp_millis),
                    agent,
                    sent_today: u32::try_from(sent).unwrap_or(u32::MAX),
                    record: rec,
                })
            })
            .collect()
    }

    /// Webhook attempt outcomes since start, by kind.
    pub fn webhook_outcomes(&self) -> Vec<(String, u64)> {
        self.inner.shared.outcomes.snapshot()
    }

    fn usage(&self, id: Ulid) -> Result<Usage, EngineError> {
        let now = self.inner.clock.now();
        let s = &self.inner.store;
        Ok(Usage {
            api_calls_this_month: s.tenants().counter(id, &format!("{CALLS}{}", month_key(now)))?,
            new_contacts_today: s.tenants().counter(id, &format!("{NEW_CONTACTS}{}", now.date_naive()))?,
        })
    }

    /// Tenants passivated since start (`/metrics`).
    pub fn passivations(&self) -> u64 {
        self.inner.shared.passivations.load(Ordering::Relaxed)
    }

    /// How many tenant actors are running.
    pub fn running_tenants(&self) -> usize {
        self.inner.tenants.read().unwrap().len()
    }

    /// How much work waits, over every running actor: for `/metrics`.
    pub async fn depths(&self) -> Depths {
        let mut d = Depths::default();
        let now_ms = self.inner.clock.now().timestamp_millis();
        let phones: Vec<_> = {
            let running = self.inner.shared.phones.read().unwrap();
            d.phones_online = running.values().filter(|e| e.live.is_online(now_ms)).count();
            running.values().map(|e| e.addr.clone()).collect()
        };
        for a in phones {
            if let Ok((queued, in_flight)) = a.send(phone::Depth).await {
                d.queued += queued;
                d.in_flight += in_flight;
            }
        }
        let hooks: Vec<_> = self.inner.shared.webhooks.read().unwrap().values().cloned().collect();
        for a in hooks {
            d.webhook_deliveries += a.send(crate::webhook::Depth).await.unwrap_or(0);
        }
        if let Some(s) = self.inner.shared.scheduler.get() {
            d.held = s.send(crate::scheduler::Depth).await.unwrap_or(0);
        }
        d
    }
}
