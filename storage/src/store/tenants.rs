//! Tenants and their named counters (monthly calls, new contacts per day, each phone's sends per
//! day). The tenant tree is global by nature: its key is the tenant id itself.
//!
//! Counters change on every call, so they are written back: a change lives in memory and the
//! ticker (`mark.rs`) writes it within a second. A message carries the counters its accept left
//! (`MessageRecord::tally`), and a restart takes the highest of those made since the recovery
//! mark, so a `kill -9` forgets no counted message; it can forget up to a second of calls that
//! sent nothing (reads), which then go uncounted.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ulid::Ulid;

use super::keys::Keys;
use super::tree::{Opener, Tree, Writes};
use super::{decode, encode, page, tkey, u64_value};
use crate::model::{ApiKeyRecord, TenantRecord};
use crate::StoreError;

/// The `tenants` and `counters` trees.
pub struct Tenants {
    tenants: Tree,
    counters: Arc<Counters>,
}

/// What a tenant's hourly counts count (the dashboard's last-24-hours chart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hourly {
    /// Messages that left a phone.
    Sent = 0,
    /// Messages that reached their recipient.
    Delivered = 1,
    /// Messages that will not arrive.
    Failed = 2,
}

/// One hour of a tenant's hourly counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HourCounts {
    /// Hours since the epoch (UTC).
    pub hour: u64,
    /// Messages that left a phone in this hour.
    pub sent: u64,
    /// Messages delivered in this hour.
    pub delivered: u64,
    /// Messages failed in this hour.
    pub failed: u64,
}

/// Hourly counts live in 24 slots per kind and tenant, each value `hour << 40 | count`: a slot
/// whose hour is not the one asked for counts nothing, so old hours need no pruning.
const HOUR_SHIFT: u32 = 40;

fn hourly_key(tenant: Ulid, kind: Hourly, hour: u64) -> Vec<u8> {
    tkey(tenant, &[b'h', b'o', b'u', b'r', b':', kind as u8, (hour % 24) as u8])
}

/// The `counters` tree and the changes not yet written to it.
pub(crate) struct Counters {
    tree: Tree,
    unwritten: Mutex<HashMap<Vec<u8>, u64>>,
}

impl Counters {
    pub(super) fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Writes the changes made so far; returns how many.
    pub(crate) fn write_back(&self) -> Result<usize, StoreError> {
        let changed: Vec<(Vec<u8>, u64)> =
            self.unwritten.lock().unwrap().iter().map(|(k, v)| (k.clone(), *v)).collect();
        for (k, v) in &changed {
            self.tree.insert(k, &v.to_be_bytes())?;
        }
        // Only what was written leaves memory; a change made meanwhile waits for the next tick.
        let mut unwritten = self.unwritten.lock().unwrap();
        for (k, v) in &changed {
            if unwritten.get(k) == Some(v) {
                unwritten.remove(k);
            }
        }
        Ok(changed.len())
    }

    /// Raises a counter on disk to `value` if it is lower (recovery from a message's tally).
    pub(crate) fn raise(&self, tenant: Ulid, name: &str, value: u64) -> Result<(), StoreError> {
        let key = tkey(tenant, name.as_bytes());
        if u64_value(self.tree.get(&key)?) < value {
            self.tree.insert(key, &value.to_be_bytes())?;
        }
        Ok(())
    }
}

impl Tenants {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self {
            tenants: db.tree("tenants")?,
            counters: Arc::new(Counters { tree: db.tree("counters")?, unwritten: Mutex::default() }),
        })
    }

    pub(super) fn counters(&self) -> &Arc<Counters> {
        &self.counters
    }

    /// Writes a new tenant and its first keys in one transaction.
    pub(super) fn create(
        &self,
        t: &TenantRecord,
        keys: &Keys,
        records: &[ApiKeyRecord],
    ) -> Result<(), StoreError> {
        let mut w = Writes::default();
        w.insert(&self.tenants, t.id.to_bytes(), encode(t));
        for k in records {
            keys.put_in(&mut w, k);
        }
        w.apply()
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
        let key = tkey(tenant, name.as_bytes());
        if let Some(v) = self.counters.unwritten.lock().unwrap().get(&key) {
            return Ok(*v);
        }
        Ok(u64_value(self.counters.tree.get(key)?))
    }

    /// Sets a counter; it is written back within a second (see the module docs).
    pub fn set_counter(&self, tenant: Ulid, name: &str, value: u64) {
        self.set_counters(tenant, &[(name, value)]);
    }

    /// Counts one message in `kind` for `hour` (hours since the epoch). Like every counter it is
    /// written back within a second; unlike a tally it is not restored after a `kill -9`, so a
    /// crash can forget up to a second of the chart (never a message).
    pub fn count_hour(&self, tenant: Ulid, kind: Hourly, hour: u64) -> Result<(), StoreError> {
        let key = hourly_key(tenant, kind, hour);
        let mut unwritten = self.counters.unwritten.lock().unwrap();
        let current = match unwritten.get(&key) {
            Some(v) => *v,
            // Read under the lock so two phones of a tenant cannot both start from disk; this
            // happens once per slot and second at most (after each write-back).
            None => u64_value(self.counters.tree.get(&key)?),
        };
        let value = match (current >> HOUR_SHIFT).cmp(&hour) {
            std::cmp::Ordering::Equal => current + 1,
            std::cmp::Ordering::Less => (hour << HOUR_SHIFT) | 1,
            // The clock stepped back over an hour: keep the later hour's count.
            std::cmp::Ordering::Greater => return Ok(()),
        };
        unwritten.insert(key, value);
        Ok(())
    }

    /// The 24 hours up to and including `now_hour`, oldest first.
    pub fn hours(&self, tenant: Ulid, now_hour: u64) -> Result<Vec<HourCounts>, StoreError> {
        let first = now_hour.saturating_sub(23);
        let mut out: Vec<HourCounts> =
            (first..=now_hour).map(|hour| HourCounts { hour, ..Default::default() }).collect();
        for h in &mut out {
            for kind in [Hourly::Sent, Hourly::Delivered, Hourly::Failed] {
                let key = hourly_key(tenant, kind, h.hour);
                let cached = self.counters.unwritten.lock().unwrap().get(&key).copied();
                let v = match cached {
                    Some(v) => v,
                    None => u64_value(self.counters.tree.get(&key)?),
                };
                let n = if v >> HOUR_SHIFT == h.hour { v & ((1 << HOUR_SHIFT) - 1) } else { 0 };
                match kind {
                    Hourly::Sent => h.sent = n,
                    Hourly::Delivered => h.delivered = n,
                    Hourly::Failed => h.failed = n,
                }
            }
        }
        Ok(out)
    }

    /// Sets several counters at once (a message's tally), under one lock.
    pub(crate) fn set_counters<S: AsRef<str>>(&self, tenant: Ulid, values: &[(S, u64)]) {
        let mut unwritten = self.counters.unwritten.lock().unwrap();
        for (name, value) in values {
            unwritten.insert(tkey(tenant, name.as_ref().as_bytes()), *value);
        }
    }
}
