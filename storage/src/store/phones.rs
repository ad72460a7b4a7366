//! Phones: the records (under their tenant), the id index (phone → tenant, for the operator's
//! calls that name only the phone) and the agent-token index (hash → phone, to authenticate an
//! agent before its tenant is known).

use ulid::Ulid;

use super::tree::{Opener, Tree, Writes};
use super::{all_of, encode, get_of, hash_index, owner_pair, tkey, ulid_value};
use crate::model::PhoneRecord;
use crate::StoreError;

/// Where an agent token hash points. The caller must still compare the full hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhoneLocation {
    /// The tenant owning the phone.
    pub tenant_id: Ulid,
    /// The phone.
    pub phone_id: Ulid,
}

/// The `phones`, `phone_ids` and `phone_tokens` trees.
pub struct Phones {
    phones: Tree,
    phone_ids: Tree,
    phone_tokens: Tree,
}

impl Phones {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self {
            phones: db.tree("phones")?,
            phone_ids: db.tree("phone_ids")?,
            phone_tokens: db.tree("phone_tokens")?,
        })
    }

    /// Writes a phone and its indexes. Follow with [`super::Store::commit`].
    pub fn put(&self, p: &PhoneRecord) -> Result<(), StoreError> {
        self.change(p, true)
    }

    /// Removes a phone and its indexes. Follow with [`super::Store::commit`].
    pub fn delete(&self, p: &PhoneRecord) -> Result<(), StoreError> {
        self.change(p, false)
    }

    fn change(&self, p: &PhoneRecord, keep: bool) -> Result<(), StoreError> {
        let rk = tkey(p.tenant_id, &p.id.to_bytes());
        let token = p.agent_token_hash.as_deref().and_then(hash_index);
        let mut w = Writes::default();
        if keep {
            w.insert(&self.phones, &rk, encode(p));
            w.insert(&self.phone_ids, p.id.to_bytes(), &p.tenant_id.to_bytes());
            if let Some(t) = token {
                w.insert(&self.phone_tokens, t, rk.as_slice());
            }
        } else {
            w.remove(&self.phones, &rk);
            w.remove(&self.phone_ids, p.id.to_bytes());
            if let Some(t) = token {
                w.remove(&self.phone_tokens, t);
            }
        }
        w.apply()
    }

    /// A tenant's phones in creation order.
    pub fn of(&self, tenant: Ulid) -> Result<Vec<PhoneRecord>, StoreError> {
        all_of(&self.phones, "phones", tenant)
    }

    /// Every tenant's phones, tenant by tenant (oldest tenant first), after the phone `after`
    /// (the operator's node-wide list, a cursor page at a time).
    pub fn page(&self, after: Option<Ulid>, limit: usize) -> Result<Vec<PhoneRecord>, StoreError> {
        let start = match after {
            Some(id) => match self.owner(id)? {
                Some(tenant) => std::ops::Bound::Excluded(tkey(tenant, &id.to_bytes())),
                // A phone deleted meanwhile: start over rather than guess where it was.
                None => std::ops::Bound::Unbounded,
            },
            None => std::ops::Bound::Unbounded,
        };
        self.phones
            .range::<Vec<u8>, _>((start, std::ops::Bound::Unbounded))
            .take(limit)
            .map(|kv| super::decode("phones", &kv?.1))
            .collect()
    }

    /// One phone of a tenant.
    pub fn get(&self, tenant: Ulid, id: Ulid) -> Result<Option<PhoneRecord>, StoreError> {
        get_of(&self.phones, "phones", tenant, id)
    }

    /// The tenant owning a phone.
    pub fn owner(&self, id: Ulid) -> Result<Option<Ulid>, StoreError> {
        Ok(ulid_value(self.phone_ids.get(id.to_bytes())?))
    }

    /// Where an agent token hash (hex) may belong.
    pub fn by_token(&self, hash_hex: &str) -> Result<Option<PhoneLocation>, StoreError> {
        let Some(k) = hash_index(hash_hex) else { return Ok(None) };
        Ok(owner_pair(self.phone_tokens.get(k)?)
            .map(|(tenant_id, phone_id)| PhoneLocation { tenant_id, phone_id }))
    }
}
