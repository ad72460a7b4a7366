//! Tenants and their named counters (monthly calls, new contacts per day, each phone's sends per
//! day). The tenant tree is global by nature: its key is the tenant id itself.

use sled::transaction::ConflictableTransactionError as Cte;
use sled::Transactional;
use ulid::Ulid;

use super::keys::Keys;
use super::tree::{Opener, Tree};
use super::{decode, encode, page, tkey, u64_value};
use crate::model::{ApiKeyRecord, TenantRecord};
use crate::StoreError;

/// The `tenants` and `counters` trees.
pub struct Tenants {
    tenants: Tree,
    counters: Tree,
}

impl Tenants {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self { tenants: db.tree("tenants")?, counters: db.tree("counters")? })
    }

    /// Writes a new tenant and its first keys in one transaction.
    pub(super) fn create(
        &self,
        t: &TenantRecord,
        keys: &Keys,
        records: &[ApiKeyRecord],
    ) -> Result<(), StoreError> {
        let (kt, kh, ki) = keys.trees();
        (&*self.tenants, &**kt, &**kh, &**ki)
            .transaction(|(tenants, kt, kh, ki)| {
                tenants.insert(&t.id.to_bytes(), encode(t))?;
                for k in records {
                    Keys::put_in(kt, kh, ki, k)?;
                }
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)?;
        self.tenants.count(1 + 3 * records.len() as u64);
        Ok(())
    }

    /// Replaces a tenant's record. Follow with [`super::Store::commit`].
    pub fn put(&self, t: &TenantRecord) -> Result<(), StoreError> {
        self.tenants.insert(t.id.to_bytes(), encode(t))?;
        Ok(())
    }

    /// One tenant.
    pub fn get(&self, id: Ulid) -> Result<Option<TenantRecord>, StoreError> {
        self.tenants.get(id.to_bytes())?.map(|v| decode("tenants", &v)).transpose()
    }

    /// Tenants in id (= creation) order, starting after `after`.
    pub fn page(&self, after: Option<Ulid>, limit: usize) -> Result<Vec<TenantRecord>, StoreError> {
        page(&self.tenants, "tenants", &[], after, limit)
    }

    /// A tenant's named counter (0 when never set).
    pub fn counter(&self, tenant: Ulid, name: &str) -> Result<u64, StoreError> {
        Ok(u64_value(self.counters.get(tkey(tenant, name.as_bytes()))?))
    }

    /// Sets a counter in memory; it reaches disk with the next flush of any kind (see crate docs).
    pub fn set_counter(&self, tenant: Ulid, name: &str, value: u64) -> Result<(), StoreError> {
        self.counters.insert(tkey(tenant, name.as_bytes()), &value.to_be_bytes())?;
        Ok(())
    }
}
