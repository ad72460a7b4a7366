//! Start-up recovery: what the store says is still owed goes back to its actors. Only the work
//! lists are read here (`pending`, `due`, running campaigns), so start-up does not grow with the
//! backlog; each phone actor reads its messages back in chunks afterwards, and drops entries a
//! crash left stale.

use pigeon_storage::{DueDelivery, PendingWork};
use ulid::Ulid;

use super::Engine;
use crate::{phone, tenant, webhook, EngineError};

/// Consecutive work-list entries with the same key, in list order.
fn runs<T, K: PartialEq>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<(K, Vec<T>)> {
    let mut out: Vec<(K, Vec<T>)> = Vec::new();
    for item in items {
        let k = key(&item);
        match out.last_mut() {
            Some((last, run)) if *last == k => run.push(item),
            _ => out.push((k, vec![item])),
        }
    }
    out
}

impl Engine {
    /// Resumes what the store says is still owed: queued and leased messages go back to their
    /// phones, test messages complete, pending webhook deliveries and running campaigns resume.
    /// Call once at start-up; returns how many messages and deliveries were resumed. A node of a
    /// fleet owns no tenant when it starts: it resumes each tenant's work when it takes it.
    pub fn recover(&self) -> Result<usize, EngineError> {
        if self.inner.store.fleet().shared() {
            return Ok(0);
        }
        self.resume(None)
    }

    /// Resumes the work of one tenant (`Some`: a fleet's takeover) or of all.
    pub(super) fn resume(&self, only: Option<Ulid>) -> Result<usize, EngineError> {
        let messages = self.resume_messages(only)?;
        self.resume_campaigns(only)?;
        let deliveries = self.resume_deliveries(only)?;
        self.resume_watched_phones(only)?;
        if let Some(tenant) = only {
            self.resume_held(tenant)?;
        }
        if messages + deliveries > 0 {
            tracing::info!(messages, webhook_deliveries = deliveries, tenant = ?only, "resumed pending work");
        }
        Ok(messages + deliveries)
    }

    /// A taken tenant's held messages go to this node's scheduler (a node of a fleet does not
    /// read the whole schedule at start).
    fn resume_held(&self, tenant: Ulid) -> Result<(), EngineError> {
        let Some(scheduler) = self.inner.shared.scheduler.get() else { return Ok(()) };
        for h in self.inner.store.messages().scheduled()?.into_iter().filter(|h| h.tenant_id == tenant) {
            scheduler.do_send(crate::scheduler::Hold { at: h.at, tenant, id: h.message_id });
        }
        Ok(())
    }

    fn resume_messages(&self, only: Option<Ulid>) -> Result<usize, EngineError> {
        let store = &self.inner.store;
        let mut work = store.messages().pending()?;
        work.retain(|w| only.is_none_or(|t| w.tenant_id == t));
        let n = work.len();
        for ((phone_id, tenant_id), run) in runs(work, |w| (w.phone_id, w.tenant_id)) {
            let tenant = match self.addr(tenant_id) {
                Ok(a) => a,
                Err(e) => {
                    tracing::error!(error = %e, %tenant_id, "cannot resume the tenant's messages");
                    continue;
                }
            };
            let Some(p) = phone_id else {
                // Test messages: the tenant actor completes them.
                for w in run {
                    match store.messages().get(tenant_id, w.message_id) {
                        Ok(Some(m)) if m.status.is_pending() => tenant.do_send(tenant::CompleteTest(m.id)),
                        _ => {
                            let _ = store.messages().drop_pending(&w);
                        }
                    }
                }
                continue;
            };
            let ids: Vec<Ulid> = run.iter().map(|w: &PendingWork| w.message_id).collect();
            match self.inner.shared.phones.read().unwrap().get(&p) {
                Some(entry) => entry.addr.do_send(phone::Recover(ids)),
                None => tracing::error!(phone_id = %p, "pending messages of a missing phone"),
            }
        }
        Ok(n)
    }

    /// Starts the tenants of agent phones last announced online: one that went quiet while the
    /// node was down is announced `phone.offline` once its window has passed, though nothing else
    /// would start its tenant.
    fn resume_watched_phones(&self, only: Option<Ulid>) -> Result<(), EngineError> {
        let store = &self.inner.store;
        let watched = |p: &pigeon_storage::model::PhoneRecord| {
            p.driver == pigeon_storage::model::PhoneDriver::Agent && p.announced_online == Some(true)
        };
        let phones = match only {
            Some(tenant) => store.phones().of(tenant)?,
            None => {
                let (mut all, mut after) = (Vec::new(), None);
                loop {
                    let page = store.phones().page(after, 1000)?;
                    after = page.last().map(|p| p.id);
                    let done = page.len() < 1000;
                    all.extend(page.into_iter().filter(watched));
                    if done {
                        break all;
                    }
                }
            }
        };
        let mut tenants: Vec<Ulid> = phones.iter().filter(|p| watched(p)).map(|p| p.tenant_id).collect();
        tenants.dedup();
        for t in tenants {
            if let Err(e) = self.addr(t) {
                tracing::error!(error = %e, tenant_id = %t, "cannot start a tenant to watch its phones");
            }
        }
        Ok(())
    }

    fn resume_campaigns(&self, only: Option<Ulid>) -> Result<(), EngineError> {
        for c in self
            .inner
            .store
            .campaigns()
            .running()?
            .into_iter()
            .filter(|c| only.is_none_or(|t| c.tenant_id == t))
        {
            if let Ok(addr) = self.addr(c.tenant_id) {
                addr.do_send(tenant::Launch { id: c.id, resume: true });
            }
        }
        Ok(())
    }

    fn resume_deliveries(&self, only: Option<Ulid>) -> Result<usize, EngineError> {
        let mut due = self.inner.store.webhooks().due()?;
        due.retain(|d| only.is_none_or(|t| d.tenant_id == t));
        let n = due.len();
        for ((tenant_id, webhook_id), run) in runs(due, |d| (d.tenant_id, d.webhook_id)) {
            // Starting the tenant's actor starts its webhook actors.
            if self.addr(tenant_id).is_err() {
                continue;
            }
            if let Some(addr) = self.inner.shared.webhooks.read().unwrap().get(&webhook_id) {
                addr.do_send(webhook::Resume(run.iter().map(|d: &DueDelivery| d.delivery_id).collect()));
            }
        }
        Ok(n)
    }
}
