//! Starting a tenant's actor: on first use, under the registry's write lock so there is never a
//! second one; in a fleet only once this node holds the tenant's lease, and a tenant taken from
//! another node then resumes the work that node left.

use std::sync::atomic::Ordering;

use actix::prelude::*;
use pigeon_storage::fleet::Acquired;
use ulid::Ulid;

use super::Engine;
use crate::error::Missing;
use crate::tenant::TenantActor;
use crate::EngineError;

impl Engine {
    /// The tenant's running actor, started if need be. In a fleet the tenant must be this node's:
    /// a running actor whose lease this node cannot vouch for right now answers `Elsewhere`, and
    /// starting one first takes the lease; a tenant taken from another node then resumes the
    /// work that node left (`recover.rs`).
    pub(super) fn addr(&self, id: Ulid) -> Result<Addr<TenantActor>, EngineError> {
        let (addr, taken) = self.start_tenant(id)?;
        if taken {
            if let Err(e) = self.resume(Some(id)) {
                tracing::error!(error = %e, tenant = %id, "cannot resume the work of a tenant taken over");
            }
        }
        Ok(addr)
    }

    fn start_tenant(&self, id: Ulid) -> Result<(Addr<TenantActor>, bool), EngineError> {
        let store = &self.inner.store;
        let fleet = store.fleet();
        if let Some(a) = self.inner.tenants.read().unwrap().get(&id) {
            if fleet.holds(id) {
                return Ok((a.clone(), false));
            }
            if fleet.took(id) {
                // Its lease is this node's but could not be renewed in time: the database
                // does not answer (503 `STORAGE_UNAVAILABLE`).
                return Err(EngineError::Store(pigeon_storage::StoreError::Database(
                    "the tenant's lease could not be renewed".into(),
                )));
            }
            return Err(EngineError::Elsewhere(String::new()));
        }
        let mut map = self.inner.tenants.write().unwrap();
        if let Some(a) = map.get(&id) {
            return Ok((a.clone(), false));
        }
        let mut record = store.tenants().get(id)?.ok_or(EngineError::NotFound(Missing::Tenant))?;
        let taken = match fleet.acquire(id)? {
            Acquired::Elsewhere { url, .. } => return Err(EngineError::Elsewhere(url)),
            Acquired::Held => false,
            Acquired::Taken { .. } => {
                // Read before the lease was ours: the last owner may have changed it since.
                record = store.tenants().get(id)?.ok_or(EngineError::NotFound(Missing::Tenant))?;
                true
            }
        };
        let all = &self.inner.front.0;
        let arbiter = &all[self.inner.next.fetch_add(1, Ordering::Relaxed) % all.len()];
        let actor = TenantActor::load(
            self.inner.store.clone(),
            self.inner.clock.clone(),
            record,
            &self.inner.shared,
            &self.inner.tenants,
        )?;
        let addr = TenantActor::start_in_arbiter(arbiter, move |_| actor);
        map.insert(id, addr.clone());
        Ok((addr, taken))
    }
}
