//! What a tenant knows of a number apart from its messages: whether it opted out (STOP / START)
//! and the last iMessage detection by the tenant's phones.

use ulid::Ulid;

use std::ops::Bound;

use super::tree::{prefix_end, Opener, Tree};
use super::{decode, encode, tkey};
use crate::model::{DetectionRecord, OptOutRecord, OptOutVia};
use crate::StoreError;

/// The `optouts` and `detections` trees.
pub struct Numbers {
    optouts: Tree,
    detections: Tree,
}

impl Numbers {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self { optouts: db.tree("optouts")?, detections: db.tree("detections")? })
    }

    pub(super) fn detections_tree(&self) -> &Tree {
        &self.detections
    }

    /// Records an opt-out (or replaces one). Follow with [`super::Store::commit`].
    pub fn opt_out(&self, tenant: Ulid, r: &OptOutRecord) -> Result<(), StoreError> {
        self.optouts.insert(tkey(tenant, r.phone.as_bytes()), encode(r))
    }

    /// Removes a number's opt-out: it may be messaged again. Follow with [`super::Store::commit`].
    pub fn opt_in(&self, tenant: Ulid, number: &str) -> Result<(), StoreError> {
        self.optouts.remove(tkey(tenant, number.as_bytes()))
    }

    /// True if the number opted out of this tenant and not back in since. The send path asks
    /// this of every message: it reads no value.
    pub fn is_opted_out(&self, tenant: Ulid, number: &str) -> Result<bool, StoreError> {
        self.optouts.contains_key(tkey(tenant, number.as_bytes()))
    }

    /// A number's opt-out, if it has one.
    pub fn opt_out_of(&self, tenant: Ulid, number: &str) -> Result<Option<OptOutRecord>, StoreError> {
        self.optouts.get(tkey(tenant, number.as_bytes()))?.map(|v| opt_out_record(number, &v)).transpose()
    }

    /// Up to `limit` opt-outs of a tenant in number order, after the number `after`.
    pub fn opt_outs(
        &self,
        tenant: Ulid,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<OptOutRecord>, StoreError> {
        let lo = match after {
            Some(n) => Bound::Excluded(tkey(tenant, n.as_bytes())),
            None => Bound::Included(tkey(tenant, &[])),
        };
        let hi = prefix_end(&tenant.to_bytes()).map_or(Bound::Unbounded, Bound::Excluded);
        self.optouts
            .range::<Vec<u8>, _>((lo, hi))
            .take(limit)
            .map(|kv| {
                let (k, v) = kv?;
                opt_out_record(&String::from_utf8_lossy(&k[16..]), &v)
            })
            .collect()
    }

    /// The last detection of a number by this tenant's phones.
    pub fn detection(&self, tenant: Ulid, number: &str) -> Result<Option<DetectionRecord>, StoreError> {
        self.detections.get(tkey(tenant, number.as_bytes()))?.map(|v| decode("detections", &v)).transpose()
    }

    /// Records a detection (no flush needed: a lost one is asked again).
    pub fn put_detection(&self, tenant: Ulid, number: &str, d: &DetectionRecord) -> Result<(), StoreError> {
        self.detections.insert(tkey(tenant, number.as_bytes()), encode(d))?;
        Ok(())
    }
}

/// An opt-out from its bytes: JSON, or the single byte stored before opt-outs kept their time
/// and cause (those were all keywords).
fn opt_out_record(number: &str, v: &[u8]) -> Result<OptOutRecord, StoreError> {
    if v == [1u8] {
        return Ok(OptOutRecord {
            phone: number.to_owned(),
            opted_out_at: None,
            via: OptOutVia::Keyword,
            keyword: None,
        });
    }
    decode("optouts", v)
}
