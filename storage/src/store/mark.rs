//! The recovery mark: how a restart finds work whose work-list entry was still young (in memory,
//! see `worklist.rs`) when the node stopped.
//!
//! Every second the ticker writes the young entries that have grown old to their trees, then
//! writes the mark: a time no later than the oldest young entry's id, and [`MARGIN_MS`] before
//! now, so that records made after the mark was written also sort after it. At open, the store
//! scans the messages and deliveries made since the mark and lists again those still owed.
//!
//! Counters are written back by the same tick, before the mark (see `tenants.rs`); the scan
//! raises each to the highest tally of the messages it reads.
//!
//! Why a crash loses nothing: sled recovers a prefix of its log. An entry written to its tree by
//! the ticker precedes the mark that passes it, so a mark that survived has them. A young entry
//! was made after the surviving mark was computed or was young then; either way its record sorts
//! after the mark, and its record is what the scan reads. Entries are listed before their record
//! is written, so the scan never meets a record owed work whose entry was not yet counted young.

use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use ulid::Ulid;

use super::spans::Spanned;
use super::tenants::Counters;
use super::tree::{prefix_end, Tree};
use super::webhooks::due_key;
use super::worklist::WorkList;
use super::{decode, messages::pending_key};
use crate::clock::{now_ms, SharedClock};
use crate::health::Health;
use crate::model::{DeliveryRecord, DeliveryState, MessageRecord};
use crate::StoreError;

/// How far before now the mark stays: records are made (their ULID taken) this long at most
/// before their work-list entry is added. Also covers small steps back of the system clock.
pub(crate) const MARGIN_MS: u64 = 5_000;

/// How often the ticker runs.
const TICK: Duration = Duration::from_secs(1);

/// While the store cannot write, the disk is probed every this many ticks.
const PROBE_EVERY: u64 = 3;

/// The `meta` key of the mark (milliseconds since the epoch, big-endian) of a node on its own.
/// In a fleet each node writes its own (`recover_from_ms/<node id>`, see [`mark_key`]): a
/// tenant's next owner scans from its previous owner's.
pub(crate) const MARK: &[u8] = b"recover_from_ms";

/// The mark's key for `node` (`None`: a node on its own).
pub(crate) fn mark_key(node: Option<&str>) -> Vec<u8> {
    match node {
        Some(n) => [MARK, b"/", n.as_bytes()].concat(),
        None => MARK.to_vec(),
    }
}

/// The trees and lists the ticker and the open-time scan work on.
pub(crate) struct Lists {
    pub(crate) meta: Tree,
    /// This node's mark key ([`mark_key`]).
    pub(crate) mark: Vec<u8>,
    pub(crate) pending: Arc<WorkList>,
    pub(crate) due: Arc<WorkList>,
    pub(crate) messages: Arc<Spanned>,
    pub(crate) deliveries: Arc<Spanned>,
    pub(crate) webhooks: Tree,
    pub(crate) counters: Arc<Counters>,
    /// The clock ids are made with: the mark is a time on it.
    pub(crate) clock: SharedClock,
}

impl Lists {
    /// Writes old young entries and changed counters to disk, then a mark below every entry
    /// still young and every message whose tally was not yet written.
    pub(crate) fn tick(&self) -> Result<(), StoreError> {
        let now = now_ms(&*self.clock);
        self.pending.move_old(now)?;
        self.due.move_old(now)?;
        self.counters.write_back()?;
        let mark = [self.pending.oldest_young_ms(), self.due.oldest_young_ms()]
            .into_iter()
            .flatten()
            .fold(now.saturating_sub(MARGIN_MS), u64::min);
        self.meta.insert(&self.mark, &mark.to_be_bytes())?;
        Ok(())
    }

    /// Lists again the work of records made since the mark (at open, before anything else
    /// writes), then writes a fresh mark. Returns how many entries it listed.
    pub(crate) fn recover(&self) -> Result<usize, StoreError> {
        let listed = match self.meta.get(&self.mark)? {
            Some(v) => self.list_since(&[], u64::from_be_bytes(v.as_ref().try_into().unwrap_or([0; 8])))?,
            None => 0,
        };
        // A store without a mark (new, or from before marks) had every entry on disk.
        self.tick()?;
        Ok(listed)
    }

    /// The mark `key` names, if written.
    pub(crate) fn mark_at(&self, key: &[u8]) -> Result<Option<u64>, StoreError> {
        Ok(self.meta.get(key)?.map(|v| u64::from_be_bytes(v.as_ref().try_into().unwrap_or([0; 8]))))
    }

    /// Lists again the work of the records of the tenants whose ids start with `prefix` (all of
    /// them: empty; one: its 16 bytes) made at or after `ms`; returns how many entries.
    pub(crate) fn list_since(&self, prefix: &[u8], ms: u64) -> Result<usize, StoreError> {
        let mut listed = 0;
        {
            let from = Ulid::from_parts(ms, 0).to_bytes();
            // Each tree that may hold records since the mark in turn: the order does not matter.
            for tree in self.messages.trees_since(ms) {
                for_each_group(&tree, prefix, 16, &from, |_, v| {
                    let m: MessageRecord = decode("messages", v)?;
                    for (name, value) in &m.tally {
                        self.counters.raise(m.tenant_id, name, *value)?;
                    }
                    if m.status.is_pending() && !m.held {
                        self.pending.add_found(pending_key(m.phone_id, m.id), m.tenant_id)?;
                        listed += 1;
                    }
                    Ok(())
                })?;
            }
            for tree in self.deliveries.trees_since(ms) {
                for_each_group(&tree, prefix, 32, &from, |group, v| {
                    let d: DeliveryRecord = decode("deliveries", v)?;
                    // A deleted webhook's deliveries stay in its log but are owed nothing.
                    if d.state == DeliveryState::Pending && self.webhooks.contains_key(group)? {
                        self.due.add_found(due_key(d.webhook_id, d.id), d.tenant_id)?;
                        listed += 1;
                    }
                    Ok(())
                })?;
            }
        }
        Ok(listed)
    }
}

/// Calls `f` with every record of `tree` (keys `group ++ id`, the group `group_len` bytes long)
/// whose group starts with `prefix` and whose id sorts at or after `from`, group by group: one
/// seek per group, not a walk of the tree.
fn for_each_group(
    tree: &Tree,
    prefix: &[u8],
    group_len: usize,
    from: &[u8; 16],
    mut f: impl FnMut(&[u8], &[u8]) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut seek: Vec<u8> = prefix.to_vec();
    while let Some(first) = tree.range(seek.as_slice()..).keys().next() {
        let first = first?;
        let Some(group) = first.get(..group_len).filter(|g| g.starts_with(prefix)) else { break };
        let mut start = group.to_vec();
        start.extend_from_slice(from);
        let next = prefix_end(group);
        let records = match &next {
            Some(n) => tree.range(start..n.clone()),
            None => tree.range(start..),
        };
        for kv in records {
            let (k, v) = kv?;
            f(&k[..group_len], &v)?;
        }
        match next {
            Some(n) => seek = n,
            None => break,
        }
    }
    Ok(())
}

/// Runs [`Lists::tick`] every second, and once more when dropped.
pub(crate) struct Ticker {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    /// Starts the ticker. While the store cannot write (`health`), it writes nothing and probes
    /// the disk every [`PROBE_EVERY`] ticks instead.
    pub(crate) fn start(lists: Arc<Lists>, health: Arc<Health>) -> std::io::Result<Self> {
        let (stop, rx) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new().name("pigeon-mark".into()).spawn(move || {
            let mut failing = false;
            let mut ticks = 0u64;
            loop {
                let stopping = !matches!(rx.recv_timeout(TICK), Err(mpsc::RecvTimeoutError::Timeout));
                ticks += 1;
                if health.is_failed() {
                    if ticks % PROBE_EVERY == 0 {
                        health.probe();
                    }
                    if stopping {
                        break;
                    }
                    continue;
                }
                // The last tick, at close, writes back what changed since the one before. A
                // failure is logged once, not every second, and its end once.
                match lists.tick() {
                    Err(e) if !failing => {
                        failing = true;
                        tracing::error!(error = %e, "cannot write back counters and the recovery mark");
                    }
                    Ok(()) if failing => {
                        failing = false;
                        tracing::info!("writing back counters and the recovery mark again");
                    }
                    _ => {}
                }
                if stopping {
                    break;
                }
            }
        })?;
        Ok(Self { stop: Some(stop), thread: Some(thread) })
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_end_is_the_next_prefix() {
        assert_eq!(prefix_end(&[1, 2]), Some(vec![1, 3]));
        assert_eq!(prefix_end(&[1, 0xff]), Some(vec![2]));
        assert_eq!(prefix_end(&[0xff, 0xff]), None);
    }

    #[test]
    fn ids_of_a_group_are_read_from_the_mark_on() {
        let dir = tempfile::tempdir().unwrap();
        let db = sled::open(dir.path()).unwrap();
        let writes = Arc::default();
        let health = Arc::new(Health::new(dir.path().to_owned()));
        let clock = crate::clock::SystemClock::shared();
        let engine = super::super::tree::Engine::Sled(db);
        let opener = super::super::tree::Opener {
            engine: &engine,
            writes: &writes,
            health: &health,
            clock: &clock,
            tap: &Default::default(),
        };
        let tree = opener.tree("t").unwrap();
        for (g, id) in [(1u8, 1u8), (1, 5), (2, 2), (2, 9), (0xff, 7)] {
            let mut k = vec![g; 16];
            k.extend_from_slice(&[id; 16]);
            tree.insert(k, &[id]).unwrap();
        }
        let mut seen = Vec::new();
        for_each_group(&tree, &[], 16, &[5; 16], |g, v| {
            seen.push((g[0], v[0]));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![(1, 5), (2, 9), (0xff, 7)]);
        // One tenant's groups only (a fleet's takeover).
        seen.clear();
        for_each_group(&tree, &[2; 16], 16, &[5; 16], |g, v| {
            seen.push((g[0], v[0]));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![(2, 9)]);
    }
}
