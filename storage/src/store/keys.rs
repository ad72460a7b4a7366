//! API keys: the records (under their tenant), the credential index (hash → key, for
//! authentication before the tenant is known) and the id index (key id → tenant, for the
//! operator's calls that name only the key). A revoked key leaves the credential index.

use ulid::Ulid;

use super::tree::{Opener, Tree, Writes};
use super::{all_of, encode, hash_index, owner_pair, tkey, ulid_value};
use crate::model::ApiKeyRecord;
use crate::StoreError;

/// Where a credential hash points: the key and its tenant. The caller must still compare the
/// full hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyLocation {
    /// The tenant owning the key.
    pub tenant_id: Ulid,
    /// The key.
    pub key_id: Ulid,
}

/// The `keys`, `key_hashes` and `key_ids` trees.
pub struct Keys {
    keys: Tree,
    key_hashes: Tree,
    key_ids: Tree,
}

impl Keys {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self { keys: db.tree("keys")?, key_hashes: db.tree("key_hashes")?, key_ids: db.tree("key_ids")? })
    }

    /// One key and both its indexes, added to a set of writes that land together.
    pub(super) fn put_in<'t>(&'t self, w: &mut Writes<'t>, k: &ApiKeyRecord) {
        let rk = tkey(k.tenant_id, &k.id.to_bytes());
        w.insert(&self.keys, &rk, encode(k));
        w.insert(&self.key_ids, k.id.to_bytes(), &k.tenant_id.to_bytes());
        let hk = hash_index(&k.hash).expect("stored hashes are full SHA-256 hex");
        if k.revoked_at.is_some() {
            w.remove(&self.key_hashes, hk);
        } else {
            w.insert(&self.key_hashes, hk, rk);
        }
    }

    /// Writes a key and keeps both indexes in step: a revoked key leaves the credential index, so
    /// it can never authenticate again. Follow with [`super::Store::commit`] when the change must
    /// last.
    pub fn put(&self, k: &ApiKeyRecord) -> Result<(), StoreError> {
        let mut w = Writes::default();
        self.put_in(&mut w, k);
        w.apply()
    }

    /// Writes a key whose indexed fields (hash, revocation) did not change since its last
    /// [`Keys::put`], e.g. a new `last_used_at`: the record alone. A running tenant notes its key's
    /// use every few seconds, and a write to three trees at once is a sled transaction, which
    /// holds every other store operation of the process up while it waits for those in flight.
    pub fn touch(&self, k: &ApiKeyRecord) -> Result<(), StoreError> {
        self.keys.insert(tkey(k.tenant_id, &k.id.to_bytes()), encode(k))
    }

    /// Every key of a tenant, revoked ones included, in creation order.
    pub fn of(&self, tenant: Ulid) -> Result<Vec<ApiKeyRecord>, StoreError> {
        all_of(&self.keys, "keys", tenant)
    }

    /// One key of a tenant, revoked or not.
    pub fn get(&self, tenant: Ulid, id: Ulid) -> Result<Option<ApiKeyRecord>, StoreError> {
        super::get_of(&self.keys, "keys", tenant, id)
    }

    /// Where a credential hash (hex) may belong.
    pub fn by_hash(&self, hash_hex: &str) -> Result<Option<KeyLocation>, StoreError> {
        let Some(k) = hash_index(hash_hex) else { return Ok(None) };
        Ok(owner_pair(self.key_hashes.get(k)?).map(|(tenant_id, key_id)| KeyLocation { tenant_id, key_id }))
    }

    /// The tenant owning a key id, for the operator's key calls.
    pub fn owner(&self, key_id: Ulid) -> Result<Option<Ulid>, StoreError> {
        Ok(ulid_value(self.key_ids.get(key_id.to_bytes())?))
    }
}
