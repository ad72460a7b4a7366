//! What a tenant knows of a number apart from its messages: whether it opted out (STOP / START)
//! and the last iMessage detection by the tenant's phones.

use ulid::Ulid;

use super::tree::{Opener, Tree};
use super::{decode, encode, tkey};
use crate::model::DetectionRecord;
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

    /// Opts a number out of (or back into) a tenant. Follow with [`super::Store::commit`].
    pub fn set_opted_out(&self, tenant: Ulid, number: &str, out: bool) -> Result<(), StoreError> {
        let k = tkey(tenant, number.as_bytes());
        if out {
            self.optouts.insert(k, &[1u8])?;
        } else {
            self.optouts.remove(k)?;
        }
        Ok(())
    }

    /// True if the number sent STOP to this tenant and not START since.
    pub fn is_opted_out(&self, tenant: Ulid, number: &str) -> Result<bool, StoreError> {
        self.optouts.contains_key(tkey(tenant, number.as_bytes()))
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
