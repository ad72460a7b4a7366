//! Retention: deleting what a node no longer needs to keep, in small batches so a sweep never
//! holds a writer up for long. Each call does a bounded amount of work and says how much it
//! deleted; the engine's sweeper calls them until nothing old is left.
//!
//! What goes: final messages (delivered, failed, cancelled, received) accepted before a cutoff,
//! settled webhook deliveries made before it, idempotency keys and detection answers past their
//! own windows, daily counters of days before yesterday. What stays: queued, leased and held
//! messages, pending deliveries, the monthly call counts and the hourly slots.
//! A campaign's message that goes is counted under the campaign first (see
//! [`super::Campaigns::prune_link`]), so campaign counts stay right.

use chrono::{DateTime, NaiveDate, Utc};
use ulid::Ulid;

use super::{decode, tkey, Store};
use crate::model::{DeliveryRecord, DeliveryState, DetectionRecord, IdempotencyRecord, MessageRecord};
use crate::StoreError;

/// Where a scan over a whole tree stopped; `None` starts from the first key.
pub type Cursor = Option<super::tree::IVec>;

/// The smallest id made at `at` or later: records keyed by id sort before it iff made before `at`.
pub fn id_bound(at: DateTime<Utc>) -> Ulid {
    Ulid::from_parts(at.timestamp_millis().max(0) as u64, 0)
}

impl Store {
    /// Deletes up to `max` final messages of `tenant` accepted before `before`, oldest first;
    /// returns how many went. Messages not final are passed over (and stay).
    /// In a fleet, only the tenant's owner prunes (others return 0).
    pub fn prune_messages(&self, tenant: Ulid, before: Ulid, max: usize) -> Result<usize, StoreError> {
        if !self.mine(tenant) {
            return Ok(0);
        }
        // Records past the floor live in spans, which `retire_spans` drops whole.
        let (tree, floor) = self.inner.messages.tree().base();
        let before = below_floor(before, floor);
        let mut deleted = 0;
        for kv in tree.range(tkey(tenant, &[0; 16])..tkey(tenant, &before.to_bytes())) {
            if deleted >= max {
                break;
            }
            let (k, v) = kv?;
            let m: MessageRecord = decode("messages", &v)?;
            if !m.status.is_final() {
                continue;
            }
            // Counted under its campaign before it goes: a crash in between leaves it counted and
            // still here, and the next sweep only deletes it (the link is gone).
            if let Some(c) = m.campaign_id {
                self.inner.campaigns.prune_link(tenant, c, m.id, m.status)?;
            }
            tree.remove(k)?;
            deleted += 1;
        }
        Ok(deleted)
    }

    /// Deletes up to `max` settled deliveries of `tenant` made before `before` (every webhook's,
    /// deleted webhooks' too); returns how many went. Pending ones stay.
    pub fn prune_deliveries(&self, tenant: Ulid, before: Ulid, max: usize) -> Result<usize, StoreError> {
        if !self.mine(tenant) {
            return Ok(0);
        }
        let (tree, floor) = self.inner.webhooks.deliveries_tree().base();
        let before = below_floor(before, floor);
        let mut deleted = 0;
        // Keys are `tenant ++ webhook ++ delivery`: visit each webhook's old range in turn.
        let mut webhook_from = [0u8; 16];
        loop {
            let Some(first) =
                tree.range(tkey(tenant, &webhook_from)..tkey(tenant, &[0xff; 16])).keys().next()
            else {
                return Ok(deleted);
            };
            let first = first?;
            let webhook: [u8; 16] = first[16..32].try_into().expect("delivery keys are 48 bytes");
            let prefix = tkey(tenant, &webhook);
            let mut old_end = prefix.clone();
            old_end.extend_from_slice(&before.to_bytes());
            for kv in tree.range(prefix.clone()..old_end) {
                if deleted >= max {
                    return Ok(deleted);
                }
                let (k, v) = kv?;
                let d: DeliveryRecord = decode("deliveries", &v)?;
                if d.state != DeliveryState::Pending {
                    tree.remove(k)?;
                    deleted += 1;
                }
            }
            match u128::from_be_bytes(webhook).checked_add(1) {
                Some(next) => webhook_from = next.to_be_bytes(),
                None => return Ok(deleted),
            }
        }
    }

    /// One step of retiring the spans of messages and of deliveries whose time ended before
    /// `before` (see `spans.rs`): reads up to `max` records of each, and drops a span once all
    /// its records are read and those not final copied out. Returns the final messages and
    /// settled deliveries that went, and whether more is due.
    pub fn retire_spans(&self, before: Ulid, max: usize) -> Result<(usize, usize, bool), StoreError> {
        let before_ms = before.timestamp_ms();
        let messages = self.inner.messages.tree().retire_step(
            before_ms,
            max,
            |v| Ok(decode::<MessageRecord>("messages", v)?.status.is_final()),
            |_, v| {
                // Counted under its campaign before it goes (see `prune_messages`).
                let m: MessageRecord = decode("messages", v)?;
                match m.campaign_id {
                    Some(c) => self.inner.campaigns.prune_link(m.tenant_id, c, m.id, m.status),
                    None => Ok(()),
                }
            },
        )?;
        let deliveries = self.inner.webhooks.deliveries_tree().retire_step(
            before_ms,
            max,
            |v| Ok(decode::<DeliveryRecord>("deliveries", v)?.state != DeliveryState::Pending),
            |_, _| Ok(()),
        )?;
        let events = self.inner.events.tree().retire_step(before_ms, max, |_| Ok(true), |_, _| Ok(()))?;
        Ok((messages.deleted, deliveries.deleted, messages.more || deliveries.more || events.more))
    }

    /// Deletes up to `max` events of `tenant` made before `before` key by key (on PostgreSQL,
    /// where there are no spans); returns how many went. In a fleet, only the owner prunes.
    pub fn prune_events(&self, tenant: Ulid, before: Ulid, max: usize) -> Result<usize, StoreError> {
        if !self.mine(tenant) {
            return Ok(0);
        }
        self.inner.events.prune(tenant, before, max)
    }

    /// Sets how long a span of messages or deliveries is, for spans made from now on: the
    /// retention sweeper makes it a fraction of its window.
    pub fn set_span_length(&self, length: std::time::Duration) {
        self.inner.messages.tree().set_length(length);
        self.inner.webhooks.deliveries_tree().set_length(length);
        self.inner.events.tree().set_length(length);
    }

    /// How many spans hold messages and deliveries (0 on PostgreSQL).
    pub fn span_count(&self) -> usize {
        self.inner.messages.tree().span_count()
            + self.inner.webhooks.deliveries_tree().span_count()
            + self.inner.events.tree().span_count()
    }

    /// Looks at up to `max` idempotency keys from `cursor` and deletes those first used before
    /// `before`; returns where to go on (`None`: the end was reached) and how many went.
    pub fn prune_idempotency(
        &self,
        cursor: Cursor,
        before: DateTime<Utc>,
        max: usize,
    ) -> Result<(Cursor, usize), StoreError> {
        prune_scan(self.inner.messages.idempotency_tree(), cursor, max, |k, v| {
            let r: IdempotencyRecord = decode("idempotency", v)?;
            Ok(r.created_at < before && self.owns_key(k))
        })
    }

    /// Looks at up to `max` detection answers from `cursor` and deletes those checked before
    /// `before`; returns where to go on and how many went.
    pub fn prune_detections(
        &self,
        cursor: Cursor,
        before: DateTime<Utc>,
        max: usize,
    ) -> Result<(Cursor, usize), StoreError> {
        prune_scan(self.inner.numbers.detections_tree(), cursor, max, |k, v| {
            let d: DetectionRecord = decode("detections", v)?;
            Ok(d.checked_at < before && self.owns_key(k))
        })
    }

    /// Looks at up to `max` counters from `cursor` and deletes the daily ones (new contacts, a
    /// phone's sends) of days before `before`; returns where to go on and how many went. Only
    /// today's are read, and a node that kept them would hold a key per phone and day for good:
    /// disk, and sled memory, that grow with the node's age rather than its tenants.
    pub fn prune_daily_counters(
        &self,
        cursor: Cursor,
        before: NaiveDate,
        max: usize,
    ) -> Result<(Cursor, usize), StoreError> {
        prune_scan(self.inner.tenants.counters().tree(), cursor, max, |k, _| {
            Ok(counter_day(k).is_some_and(|day| day < before) && self.owns_key(k))
        })
    }

    /// Whether this node acts for the tenant a tenant-keyed record belongs to (see [`Store::mine`]).
    fn owns_key(&self, key: &[u8]) -> bool {
        key.get(..16)
            .and_then(|t| <[u8; 16]>::try_from(t).ok())
            .is_some_and(|t| self.mine(Ulid::from_bytes(t)))
    }
}

/// The earlier of `before` and the floor (ms) below which a family's base tree holds its records.
fn below_floor(before: Ulid, floor: u64) -> Ulid {
    if before.timestamp_ms() <= floor {
        before
    } else {
        Ulid::from_parts(floor, 0)
    }
}

/// The day a daily counter counts: its name (after the tenant id) ends in `:YYYY-MM-DD`.
fn counter_day(key: &[u8]) -> Option<NaiveDate> {
    let name = key.get(16..)?;
    let colon = name.len().checked_sub(11)?;
    if name[colon] != b':' {
        return None;
    }
    NaiveDate::parse_from_str(std::str::from_utf8(&name[colon + 1..]).ok()?, "%Y-%m-%d").ok()
}

/// One step of a scan over a whole tree that deletes what `expired` says: at most `max` keys
/// looked at, starting after `cursor`.
fn prune_scan(
    tree: &super::tree::Tree,
    cursor: Cursor,
    max: usize,
    expired: impl Fn(&[u8], &[u8]) -> Result<bool, StoreError>,
) -> Result<(Cursor, usize), StoreError> {
    let start = match &cursor {
        Some(k) => std::ops::Bound::Excluded(k.clone()),
        None => std::ops::Bound::Unbounded,
    };
    let (mut looked, mut deleted) = (0, 0);
    for kv in tree.range::<super::tree::IVec, _>((start, std::ops::Bound::Unbounded)) {
        let (k, v) = kv?;
        if expired(&k, &v)? {
            tree.remove(&k)?;
            deleted += 1;
        }
        looked += 1;
        if looked >= max {
            return Ok((Some(k), deleted));
        }
    }
    Ok((None, deleted))
}
