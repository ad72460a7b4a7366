//! Time-partitioned trees for the records retention deletes by age: messages and webhook
//! deliveries. On sled, deleting old records key by key wrote a delete for each one into a leaf
//! last touched minutes before (read back from disk first, on a VM that drops cold page cache),
//! and sled then rewrote the half-empty leaves: at 7,300 sends a second with a 2-minute retention
//! that took the accept p99.9 from 9 to 85 ms (docs/lab/2026-11-27-retention-drops-spans-time-whole.md). Here each stretch
//! of time, a *span*, is a sled tree of its own (`<family>@<start ms>+<length ms>`), and
//! retention *retires* a span whose time is over: it copies the records not yet final into the
//! family's base tree (the family's name, which also holds every record from before spans) and
//! drops the span's tree whole.
//!
//! A record's key holds its id (a ULID) at a fixed offset, and the id's time says where the record
//! lives: before the *floor* (the end of the last retired span), in the base tree; otherwise in
//! the span whose time holds it. Keys keep their order within a group (the bytes before the id),
//! so a group's records read in order span after span. On PostgreSQL there are no spans: the
//! family is its base table, and retention deletes from it key by key as before.
//!
//! A store opened for the first time with spans starts their floor at that moment: what it held
//! already stays in the base tree and is deleted key by key as before, so no record moves.
//!
//! Retiring is crash-safe without a transaction: a record's only authoritative copy is where the
//! floor routes it. Until the new floor is written (after the copies, in the same log), the span
//! is authoritative and a copy in the base tree is ignored; a span found below the floor at open
//! was retired and is dropped then.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use super::tree::{IVec, Iter, Opener, Tree};
use crate::StoreError;

/// How long a span is when the store is told nothing else ([`Spanned::set_length`]).
pub(crate) const DEFAULT_SPAN: std::time::Duration = std::time::Duration::from_secs(3_600);

/// The records of one family across its base tree and its spans.
pub(crate) struct Spanned {
    name: &'static str,
    base: Tree,
    /// Where the id starts in a key.
    id_at: usize,
    /// sled only.
    spans: Option<Spans>,
}

struct Spans {
    db: sled::Db,
    opener: OwnedOpener,
    /// The tree the floor is kept in, under [`Spans::floor_key`].
    meta: Tree,
    floor_key: Vec<u8>,
    /// The length of spans made from now on, in ms.
    length_ms: AtomicU64,
    parts: RwLock<Parts>,
    /// The span being retired, over several calls.
    retiring: Mutex<Option<Retiring>>,
    /// Trees retired and not yet dropped, and since when: an iterator made before a retirement
    /// (a page of a list, read in milliseconds) may still read one, so each goes [`DROP_AFTER`]
    /// later.
    to_drop: Mutex<Vec<(String, std::time::Instant)>>,
}

/// What opening a span's tree needs (the [`Opener`] borrows).
struct OwnedOpener {
    engine: super::tree::Engine,
    writes: Arc<AtomicU64>,
    health: Arc<crate::health::Health>,
    clock: crate::clock::SharedClock,
    tap: Arc<crate::backup::Tap>,
}

impl OwnedOpener {
    fn tree(&self, name: &str) -> Result<Tree, StoreError> {
        let (engine, writes, health, clock, tap) =
            (&self.engine, &self.writes, &self.health, &self.clock, &self.tap);
        Opener { engine, writes, health, clock, tap }.tree(name)
    }
}

#[derive(Default)]
struct Parts {
    /// Ids made before it live in the base tree.
    floor: u64,
    /// By start (ms).
    spans: BTreeMap<u64, Span>,
}

struct Span {
    name: String,
    /// Its length when made: it holds no id at or past `start + len`.
    len: u64,
    tree: Tree,
    /// Set while it is being retired: the keys written to it since are then kept here, so the
    /// copy step sees a record that changed after the scan read it.
    closing: AtomicBool,
    touched: Mutex<Vec<Vec<u8>>>,
}

/// A retirement under way: which span, how far its scan got, and the keys it must copy.
struct Retiring {
    start: u64,
    cursor: Option<IVec>,
    keep: Vec<IVec>,
    gone: usize,
}

/// What a retirement step did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Retired {
    /// Final records dropped with a span this step.
    pub(crate) deleted: usize,
    /// More remains to do: call again.
    pub(crate) more: bool,
}

impl Parts {
    /// Where `ms` lives. `None`: in a span not made yet.
    fn route<'a>(&'a self, base: &'a Tree, ms: u64) -> Option<(&'a Tree, Option<&'a Span>)> {
        if ms < self.floor {
            return Some((base, None));
        }
        let (start, span) = self.spans.range(..=ms).next_back()?;
        (ms < start + span.len).then_some((&span.tree, Some(span)))
    }

    /// Where a new span for `ms` (not routed yet, at or past the floor) starts: at a multiple of
    /// `len` unless that falls in the span before it or below the floor. It ends at its own
    /// length or where the next one starts.
    fn new_start(&self, ms: u64, len: u64) -> u64 {
        let prev_end = self.spans.range(..=ms).next_back().map_or(0, |(start, span)| start + span.len);
        (ms - ms % len).max(self.floor).max(prev_end)
    }

    /// Where the span starting at `start` ends.
    fn end(&self, start: u64) -> Option<u64> {
        let span = self.spans.get(&start)?;
        let next = self.spans.range(start + 1..).next().map_or(u64::MAX, |(s, _)| *s);
        Some((start + span.len).min(next))
    }
}

/// The time (ms) of the id at `at` in `key`; 0 for a key too short to hold one.
fn ms_at(key: &[u8], at: usize) -> u64 {
    match key.get(at..at + 6) {
        Some(b) => b.iter().fold(0u64, |ms, &b| ms << 8 | u64::from(b)),
        None => 0,
    }
}

/// A span tree's name, and back.
fn span_name(family: &str, start: u64, len: u64) -> String {
    format!("{family}@{start}+{len}")
}

fn parse_span(family: &str, name: &[u8]) -> Option<(u64, u64)> {
    let rest = std::str::from_utf8(name).ok()?.strip_prefix(family)?.strip_prefix('@')?;
    let (start, len) = rest.split_once('+')?;
    Some((start.parse().ok()?, len.parse().ok()?))
}

impl Spanned {
    /// Opens the family `name`, whose keys hold the id at `id_at`; on sled, with its spans, and
    /// drops the trees of spans retired before a crash.
    pub(crate) fn open(
        db: &Opener,
        meta: &Tree,
        name: &'static str,
        id_at: usize,
    ) -> Result<Self, StoreError> {
        let base = db.tree(name)?;
        let super::tree::Engine::Sled(sled) = db.engine else {
            return Ok(Self { name, base, id_at, spans: None });
        };
        let opener = OwnedOpener {
            engine: db.engine.clone(),
            writes: db.writes.clone(),
            health: db.health.clone(),
            clock: db.clock.clone(),
            tap: db.tap.clone(),
        };
        let floor_key = format!("span_floor:{name}").into_bytes();
        let floor = match meta.get(&floor_key)? {
            Some(v) => super::u64_value(Some(v)),
            None => {
                // First open with spans: whatever the store already holds (a store from before
                // them) lives in the base tree, and goes key by key as it always did.
                let now = crate::clock::now_ms(&**db.clock);
                meta.insert(&floor_key, &now.to_be_bytes())?;
                now
            }
        };
        let mut parts = Parts { floor, spans: BTreeMap::new() };
        for tree in sled.tree_names() {
            let Some((start, len)) = parse_span(name, &tree) else { continue };
            let tree_name = span_name(name, start, len);
            if start < floor {
                sled.drop_tree(tree_name.as_bytes())?;
                continue;
            }
            let span = Span {
                tree: opener.tree(&tree_name)?,
                name: tree_name,
                len,
                closing: AtomicBool::new(false),
                touched: Mutex::default(),
            };
            parts.spans.insert(start, span);
        }
        let spans = Spans {
            db: sled.clone(),
            opener,
            meta: meta.clone(),
            floor_key,
            length_ms: AtomicU64::new(DEFAULT_SPAN.as_millis() as u64),
            parts: RwLock::new(parts),
            retiring: Mutex::default(),
            to_drop: Mutex::default(),
        };
        Ok(Self { name, base, id_at, spans: Some(spans) })
    }

    /// The length of spans made from now on (existing ones keep theirs). Retention sets it to
    /// a fraction of its window: a record outlives the window by at most a span.
    pub(crate) fn set_length(&self, length: std::time::Duration) {
        if let Some(s) = &self.spans {
            s.length_ms.store((length.as_millis() as u64).max(1), Ordering::Relaxed);
        }
    }

    /// One record.
    pub(crate) fn get(&self, key: &[u8]) -> Result<Option<IVec>, StoreError> {
        let Some(s) = &self.spans else { return self.base.get(key) };
        let parts = s.parts.read().expect("spans lock");
        match parts.route(&self.base, ms_at(key, self.id_at)) {
            Some((tree, _)) => tree.get(key),
            None => Ok(None),
        }
    }

    /// Writes a record where its id's time says.
    pub(crate) fn insert(&self, key: &[u8], value: impl Into<IVec>) -> Result<(), StoreError> {
        let Some(s) = &self.spans else { return self.base.insert(key, value) };
        let ms = ms_at(key, self.id_at);
        {
            let parts = s.parts.read().expect("spans lock");
            if let Some((tree, span)) = parts.route(&self.base, ms) {
                if let Some(span) = span {
                    span.touch(key);
                }
                return tree.insert(key, value);
            }
        }
        let mut parts = s.parts.write().expect("spans lock");
        if parts.route(&self.base, ms).is_none() {
            let len = s.length_ms.load(Ordering::Relaxed);
            let start = parts.new_start(ms, len);
            let name = span_name(self.name, start, len);
            let tree = s.opener.tree(&name)?;
            let span = Span { name, len, tree, closing: AtomicBool::new(false), touched: Mutex::default() };
            parts.spans.insert(start, span);
        }
        let (tree, span) = parts.route(&self.base, ms).expect("a span was just made for it");
        if let Some(span) = span {
            span.touch(key);
        }
        tree.insert(key, value)
    }

    /// The records of one group (keys `group ++ id ++ …`) between `lo` and `hi`, in key order,
    /// or in the other order with `rev`. Both bounds must lie within the group.
    pub(crate) fn range(&self, lo: Bound<Vec<u8>>, hi: Bound<Vec<u8>>, rev: bool) -> SpanIter {
        let (trees, floor) = self.trees();
        let mut iters: std::collections::VecDeque<(Iter, bool)> = trees
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let iter = t.range::<Vec<u8>, _>((lo.clone(), hi.clone()));
                (if rev { iter.rev() } else { iter }, i == 0)
            })
            .collect();
        if rev {
            iters.make_contiguous().reverse();
        }
        SpanIter { iters, id_at: self.id_at, floor }
    }

    /// The base tree, then every span oldest first, and the floor (a base record whose id is at or
    /// past it is a stale copy: see the module's doc).
    fn trees(&self) -> (Vec<Tree>, u64) {
        let Some(s) = &self.spans else { return (vec![self.base.clone()], u64::MAX) };
        let parts = s.parts.read().expect("spans lock");
        let mut trees = vec![self.base.clone()];
        trees.extend(parts.spans.values().map(|s| s.tree.clone()));
        (trees, parts.floor)
    }

    /// The trees that may hold records made at or after `ms` (the base tree first): for scans
    /// across groups, which visit each tree in turn.
    pub(crate) fn trees_since(&self, ms: u64) -> Vec<Tree> {
        let Some(s) = &self.spans else { return vec![self.base.clone()] };
        let parts = s.parts.read().expect("spans lock");
        let mut trees = vec![self.base.clone()];
        for (start, span) in &parts.spans {
            if parts.end(*start).is_some_and(|end| end > ms) {
                trees.push(span.tree.clone());
            }
        }
        trees
    }

    /// The base tree and the floor below which it holds the family's records: retention's
    /// key-by-key deletes walk it (`u64::MAX` without spans).
    pub(crate) fn base(&self) -> (&Tree, u64) {
        let floor = match &self.spans {
            Some(s) => s.parts.read().expect("spans lock").floor,
            None => u64::MAX,
        };
        (&self.base, floor)
    }

    /// How many spans there are (0 on PostgreSQL).
    pub(crate) fn span_count(&self) -> usize {
        self.spans.as_ref().map_or(0, |s| s.parts.read().expect("spans lock").spans.len())
    }

    /// One step of retiring the oldest span once its time ended before `before_ms`: reads up to
    /// `max` of its records, calling `gone` with each final one (`is_final` says which), and
    /// when all are read, copies the others to the base tree, raises the floor and drops the
    /// span's tree (at the next step).
    pub(crate) fn retire_step(
        &self,
        before_ms: u64,
        max: usize,
        is_final: impl Fn(&[u8]) -> Result<bool, StoreError>,
        mut gone: impl FnMut(&[u8], &[u8]) -> Result<(), StoreError>,
    ) -> Result<Retired, StoreError> {
        let Some(s) = &self.spans else { return Ok(Retired::default()) };
        s.drop_retired()?;
        let mut retiring = s.retiring.lock().expect("spans lock");
        if retiring.is_none() {
            let parts = s.parts.read().expect("spans lock");
            let Some((&start, span)) = parts.spans.iter().next() else { return Ok(Retired::default()) };
            if parts.end(start).is_none_or(|end| end > before_ms) {
                return Ok(Retired::default());
            }
            // Writes from here on are noted; the scan below may miss them.
            span.closing.store(true, Ordering::SeqCst);
            *retiring = Some(Retiring { start, cursor: None, keep: Vec::new(), gone: 0 });
        }
        let r = retiring.as_mut().expect("set above");
        let tree = {
            let parts = s.parts.read().expect("spans lock");
            parts.spans.get(&r.start).expect("a span is retired only here").tree.clone()
        };
        let from = match r.cursor.take() {
            Some(k) => Bound::Excluded(k),
            None => Bound::Unbounded,
        };
        let mut read = 0;
        // Read cold: a span being retired is read once, then dropped (vendor/sled/PIGEON.md, 10).
        for kv in tree.range_cold::<IVec, _>((from, Bound::Unbounded)) {
            let (k, v) = kv?;
            if is_final(&v)? {
                gone(&k, &v)?;
                r.gone += 1;
            } else {
                r.keep.push(k.clone());
            }
            read += 1;
            if read >= max {
                r.cursor = Some(k);
                return Ok(Retired { deleted: 0, more: true });
            }
        }
        // Every record read: copy what stays, under the lock every writer takes.
        let mut parts = s.parts.write().expect("spans lock");
        let span = parts.spans.get(&r.start).expect("a span is retired only here");
        let kept = std::mem::take(&mut r.keep);
        let mut keys = kept.clone();
        keys.extend(
            std::mem::take(&mut *span.touched.lock().expect("spans lock")).into_iter().map(IVec::from),
        );
        keys.sort_unstable();
        keys.dedup();
        let mut deleted = r.gone;
        for k in keys {
            let Some(v) = span.tree.get(&k)? else { continue };
            if is_final(&v)? {
                // Final since the scan read it (or rewritten since): it goes too. `gone` may see
                // a record twice; its callers' effects are idempotent.
                gone(&k, &v)?;
                if kept.binary_search(&k).is_ok() {
                    deleted += 1;
                }
            } else {
                self.base.insert(&k, v)?;
                if kept.binary_search(&k).is_err() {
                    // Counted as gone by the scan, and changed since.
                    deleted -= 1;
                }
            }
        }
        let end = parts.end(r.start).expect("the span is there");
        // After the copies: a crash before this write leaves the span authoritative.
        s.meta.insert(&s.floor_key, &end.to_be_bytes())?;
        parts.floor = end;
        let span = parts.spans.remove(&r.start).expect("the span is there");
        s.to_drop.lock().expect("spans lock").push((span.name, std::time::Instant::now()));
        let more =
            parts.spans.keys().next().is_some_and(|&start| parts.end(start).is_some_and(|e| e <= before_ms));
        *retiring = None;
        Ok(Retired { deleted, more })
    }
}

impl super::tree::Records for Arc<Spanned> {
    fn records(
        &self,
        lo: Bound<Vec<u8>>,
        hi: Bound<Vec<u8>>,
        rev: bool,
    ) -> impl Iterator<Item = Result<(IVec, IVec), StoreError>> {
        self.range(lo, hi, rev)
    }

    fn record(&self, key: &[u8]) -> Result<Option<IVec>, StoreError> {
        self.get(key)
    }
}

/// How long a retired span's tree stays before it is dropped.
#[cfg(not(test))]
const DROP_AFTER: std::time::Duration = std::time::Duration::from_secs(5);
#[cfg(test)]
const DROP_AFTER: std::time::Duration = std::time::Duration::ZERO;

impl Spans {
    /// Drops the trees retired at least [`DROP_AFTER`] ago.
    fn drop_retired(&self) -> Result<(), StoreError> {
        let due: Vec<String> = {
            let mut to_drop = self.to_drop.lock().expect("spans lock");
            let (due, wait): (Vec<_>, Vec<_>) =
                std::mem::take(&mut *to_drop).into_iter().partition(|(_, at)| at.elapsed() >= DROP_AFTER);
            *to_drop = wait;
            due.into_iter().map(|(name, _)| name).collect::<Vec<_>>()
        };
        for name in due {
            self.db.drop_tree(name.as_bytes())?;
        }
        Ok(())
    }
}

impl Span {
    fn touch(&self, key: &[u8]) {
        if self.closing.load(Ordering::SeqCst) {
            self.touched.lock().expect("spans lock").push(key.to_vec());
        }
    }
}

/// Records of one group from the base tree and the spans in turn.
pub(crate) struct SpanIter {
    /// Each with whether it reads the base tree.
    iters: std::collections::VecDeque<(Iter, bool)>,
    id_at: usize,
    floor: u64,
}

impl Iterator for SpanIter {
    type Item = Result<(IVec, IVec), StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (front, is_base) = self.iters.front_mut()?;
            match front.next() {
                None => {
                    self.iters.pop_front();
                }
                // A stale copy (see the module's doc).
                Some(Ok((k, _))) if *is_base && ms_at(&k, self.id_at) >= self.floor => continue,
                Some(kv) => return Some(kv),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_name_reads_back_and_other_trees_are_not_spans() {
        assert_eq!(
            parse_span("messages", span_name("messages", 1_700_000_000_000, 15_000).as_bytes()),
            Some((1_700_000_000_000, 15_000))
        );
        assert_eq!(parse_span("messages", b"messages"), None);
        assert_eq!(parse_span("messages", b"deliveries@1+2"), None);
        assert_eq!(parse_span("messages", b"messages@x+2"), None);
    }

    #[test]
    fn the_time_of_a_key_is_its_ulids() {
        let id = ulid::Ulid::from_parts(1_764_000_000_123, 42);
        let mut key = vec![7u8; 16];
        key.extend_from_slice(&id.to_bytes());
        assert_eq!(ms_at(&key, 16), 1_764_000_000_123);
        assert_eq!(ms_at(&key[..20], 16), 0);
    }
}
