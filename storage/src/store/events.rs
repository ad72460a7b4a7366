//! The tenants' event log (`GET /v1/events`): every event a webhook could get, keyed
//! `tenant ++ event id`, written with the state change that made it (before it, like its
//! deliveries: the outbox rule), whether or not any webhook listens.
//!
//! Why the key order is the order events became durable: a tenant's appends take its lock, make
//! the id (a ULID, increasing) and insert under it, so ids sort as the inserts happened; a reader
//! takes the last id appended, then waits for a commit queued after it, and reads no further than
//! that id. What it reads is on disk, and nothing is ever added before it, so a cursor (the last id
//! read) never skips an event or meets one twice, across `kill -9` too: an event not yet flushed
//! when the node died was read by nobody. A node that takes a tenant over (a fleet's failover)
//! makes its ids above the last one on disk, whatever its clock says.
//!
//! Events live in spans (`spans.rs`) and go with them after the retention period; a cursor older
//! than what was pruned ([`Events::pruned_below`]) has lost events and is refused.

use std::collections::HashMap;
use std::ops::Bound;
use std::sync::{Arc, Mutex};

use ulid::Ulid;

use super::spans::Spanned;
use super::tree::{Opener, Tree};
use super::{decode, encode, tkey, ulid_at};
use crate::model::EventRecord;
use crate::StoreError;

/// The meta key of the newest event pruned key by key (PostgreSQL's way).
const PRUNED_KEY: &[u8] = b"events_pruned_before";

/// The `events` family and each tenant's append point.
pub struct Events {
    tree: Arc<Spanned>,
    meta: Tree,
    logs: Mutex<HashMap<Ulid, Arc<Log>>>,
}

/// One tenant's append point, and the signal its readers wait on.
struct Log {
    /// The last id appended (or found on disk), `None` before any.
    last: Mutex<Option<Ulid>>,
    /// Bumped at every append.
    appended: tokio::sync::watch::Sender<u64>,
}

/// What a read found.
pub struct EventPage {
    /// The events, oldest first, with their ids.
    pub events: Vec<(Ulid, EventRecord)>,
    /// The last id looked at (matching or not); `None` when nothing followed the cursor.
    pub last_seen: Option<Ulid>,
    /// Whether the read looked at every event up to the bound it was given.
    pub at_end: bool,
}

impl Events {
    pub(super) fn open(db: &Opener, meta: &Tree) -> Result<Self, StoreError> {
        Ok(Self {
            // Keys `tenant ++ id`.
            tree: Arc::new(Spanned::open(db, meta, "events", 16)?),
            meta: meta.clone(),
            logs: Mutex::default(),
        })
    }

    pub(super) fn tree(&self) -> &Arc<Spanned> {
        &self.tree
    }

    fn log(&self, tenant: Ulid) -> Result<Arc<Log>, StoreError> {
        if let Some(l) = self.logs.lock().expect("events lock").get(&tenant) {
            return Ok(l.clone());
        }
        let last = self.last_on_disk(tenant)?;
        let mut logs = self.logs.lock().expect("events lock");
        let log = logs.entry(tenant).or_insert_with(|| {
            Arc::new(Log { last: Mutex::new(last), appended: tokio::sync::watch::Sender::new(0) })
        });
        Ok(log.clone())
    }

    fn last_on_disk(&self, tenant: Ulid) -> Result<Option<Ulid>, StoreError> {
        let (lo, hi) = bounds(tenant, None);
        match self.tree.range(lo, hi, true).next() {
            Some(kv) => Ok(Some(ulid_at(&kv?.0[16..]))),
            None => Ok(None),
        }
    }

    /// Reads the tenant's last id from disk again: a node that takes the tenant (back) over must
    /// append after whatever another node wrote meanwhile.
    pub fn refresh(&self, tenant: Ulid) -> Result<(), StoreError> {
        let on_disk = self.last_on_disk(tenant)?;
        let log = self.log(tenant)?;
        let mut last = log.last.lock().expect("events lock");
        if on_disk > *last {
            *last = on_disk;
        }
        Ok(())
    }

    /// Appends an event, its id made by `new_id` under the tenant's lock and handed to `make`.
    /// Follow with [`super::Store::commit`].
    pub fn append(
        &self,
        tenant: Ulid,
        new_id: impl FnOnce() -> Ulid,
        make: impl FnOnce(Ulid) -> EventRecord,
    ) -> Result<(Ulid, EventRecord), StoreError> {
        let log = self.log(tenant)?;
        let (id, record) = {
            let mut last = log.last.lock().expect("events lock");
            let mut id = new_id();
            if let Some(l) = *last {
                if id <= l {
                    id = l.increment().unwrap_or(l);
                }
            }
            let record = make(id);
            self.tree.insert(&key(tenant, id), encode(&record))?;
            *last = Some(id);
            (id, record)
        };
        log.appended.send_modify(|n| *n += 1);
        Ok((id, record))
    }

    /// The last id appended so far: read no further than it once a commit queued after this
    /// call resolved.
    pub fn last(&self, tenant: Ulid) -> Result<Option<Ulid>, StoreError> {
        Ok(*self.log(tenant)?.last.lock().expect("events lock"))
    }

    /// A signal that changes at every append of the tenant's.
    pub fn watch(&self, tenant: Ulid) -> Result<tokio::sync::watch::Receiver<u64>, StoreError> {
        Ok(self.log(tenant)?.appended.subscribe())
    }

    /// Up to `limit` events after `after` and no further than `upto`, that `keep` keeps; looks
    /// at no more than `scan` events.
    pub fn read(
        &self,
        tenant: Ulid,
        after: Option<Ulid>,
        upto: Option<Ulid>,
        limit: usize,
        scan: usize,
        keep: impl Fn(&EventRecord) -> bool,
    ) -> Result<EventPage, StoreError> {
        let mut page = EventPage { events: Vec::new(), last_seen: None, at_end: true };
        let Some(upto) = upto else { return Ok(page) };
        if after.is_some_and(|a| a >= upto) {
            return Ok(page);
        }
        let (lo, _) = bounds(tenant, after);
        let hi = Bound::Included(key(tenant, upto));
        for (seen, kv) in self.tree.range(lo, hi, false).enumerate() {
            if page.events.len() >= limit || seen >= scan {
                page.at_end = false;
                break;
            }
            let (k, v) = kv?;
            let id = ulid_at(&k[16..]);
            page.last_seen = Some(id);
            let e: EventRecord = decode("events", &v)?;
            if keep(&e) {
                page.events.push((id, e));
            }
        }
        Ok(page)
    }

    /// The id below which events may have been pruned: a cursor below it may have lost events.
    /// On sled it is where the events' retired spans end; on PostgreSQL the newest id pruned.
    pub fn pruned_below(&self) -> Result<Ulid, StoreError> {
        let spans = match self.tree.base().1 {
            u64::MAX => Ulid::nil(),
            floor => Ulid::from_parts(floor, 0),
        };
        let pruned =
            self.meta.get(PRUNED_KEY)?.filter(|v| v.len() == 16).map_or(Ulid::nil(), |v| ulid_at(&v));
        Ok(spans.max(pruned))
    }

    /// Deletes up to `max` of the tenant's events made before `before` key by key (PostgreSQL's
    /// way, and sled's for events from before spans); returns how many went.
    pub(super) fn prune(&self, tenant: Ulid, before: Ulid, max: usize) -> Result<usize, StoreError> {
        let (tree, floor) = self.tree.base();
        let before = if before.timestamp_ms() <= floor { before } else { Ulid::from_parts(floor, 0) };
        let old: Vec<_> = tree
            .range(key(tenant, Ulid::nil())..key(tenant, before))
            .keys()
            .take(max)
            .collect::<Result<_, _>>()?;
        let Some(newest) = old.last() else { return Ok(0) };
        // Said before anything goes, so no cursor is read on past a hole.
        let newest = ulid_at(&newest[16..]);
        if newest > self.pruned_below()? {
            self.meta.insert(PRUNED_KEY, &newest.to_bytes())?;
        }
        for k in &old {
            tree.remove(k)?;
        }
        Ok(old.len())
    }
}

fn key(tenant: Ulid, id: Ulid) -> Vec<u8> {
    tkey(tenant, &id.to_bytes())
}

/// The tenant's keys after `after` (all of them without).
fn bounds(tenant: Ulid, after: Option<Ulid>) -> (Bound<Vec<u8>>, Bound<Vec<u8>>) {
    let lo = match after {
        Some(a) => Bound::Excluded(key(tenant, a)),
        None => Bound::Included(key(tenant, Ulid::nil())),
    };
    (lo, Bound::Included(key(tenant, Ulid::from_bytes([0xff; 16]))))
}
