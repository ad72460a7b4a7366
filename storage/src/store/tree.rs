//! The seam between the families and the engine below them: a tree of ordered byte keys, on
//! sled or on PostgreSQL (`pg.rs`), with the few calls the families make. Every family is written
//! once against it, so both backends keep the same keys, indexes and orders by construction.
//!
//! It also counts the writes made through it, so the store can say what a message costs
//! (`pigeon_store_writes_total`, and the load harness's writes per message).

use std::ops::{Bound, RangeBounds};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub(crate) use sled::IVec;

use crate::backup::Tap;
use crate::health::Health;
use crate::pg::{Pg, PgIter, PgTree};
use crate::StoreError;

/// The engine a store's trees live in.
#[derive(Clone)]
pub(crate) enum Engine {
    /// An embedded sled database (the default).
    Sled(sled::Db),
    /// A PostgreSQL database, one table per tree.
    Pg(Arc<Pg>),
}

/// Opens the trees of one store, all counting into the same total.
pub(crate) struct Opener<'a> {
    pub(crate) engine: &'a Engine,
    pub(crate) writes: &'a Arc<AtomicU64>,
    pub(crate) health: &'a Arc<Health>,
    /// The store's clock, for the work lists' ages.
    pub(crate) clock: &'a crate::clock::SharedClock,
    /// Where a backup in progress hears of every write (`backup.rs`).
    pub(crate) tap: &'a Arc<Tap>,
}

impl Opener<'_> {
    pub(crate) fn tree(&self, name: &str) -> Result<Tree, StoreError> {
        let kind = match self.engine {
            Engine::Sled(db) => Kind::Sled(db.open_tree(name)?),
            Engine::Pg(pg) => Kind::Pg(pg.tree(name)?),
        };
        Ok(Tree { kind, writes: self.writes.clone(), health: self.health.clone(), tap: self.tap.clone() })
    }
}

/// A counted tree, whose failed writes tell the store's [`Health`].
#[derive(Clone)]
pub(crate) struct Tree {
    kind: Kind,
    writes: Arc<AtomicU64>,
    health: Arc<Health>,
    tap: Arc<Tap>,
}

#[derive(Clone)]
enum Kind {
    Sled(sled::Tree),
    Pg(PgTree),
}

/// A bound as owned bytes.
fn owned<K: AsRef<[u8]>>(b: Bound<&K>) -> Bound<Vec<u8>> {
    match b {
        Bound::Included(k) => Bound::Included(k.as_ref().to_vec()),
        Bound::Excluded(k) => Bound::Excluded(k.as_ref().to_vec()),
        Bound::Unbounded => Bound::Unbounded,
    }
}

/// The first key after every key that starts with `prefix`; `None` when there is none.
pub(crate) fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

impl Tree {
    /// One value.
    pub(crate) fn get<K: AsRef<[u8]>>(&self, key: K) -> Result<Option<IVec>, StoreError> {
        match &self.kind {
            Kind::Sled(t) => Ok(t.get(key)?),
            Kind::Pg(t) => t.get(key.as_ref()),
        }
    }

    /// Whether a key is there.
    pub(crate) fn contains_key<K: AsRef<[u8]>>(&self, key: K) -> Result<bool, StoreError> {
        match &self.kind {
            Kind::Sled(t) => Ok(t.contains_key(key)?),
            Kind::Pg(t) => Ok(t.get(key.as_ref())?.is_some()),
        }
    }

    pub(crate) fn insert<K: AsRef<[u8]>, V: Into<IVec>>(&self, key: K, value: V) -> Result<(), StoreError> {
        self.writes.fetch_add(1, Ordering::Relaxed);
        match &self.kind {
            Kind::Sled(t) => {
                let mut held = self.tap.hold();
                let value: IVec = value.into();
                let logged = held.is_on().then(|| value.clone());
                t.insert(key.as_ref(), value).inspect_err(|e| self.health.sled(e))?;
                if let Some(v) = logged {
                    held.push(t.name(), key.as_ref(), Some(v));
                }
            }
            Kind::Pg(t) => {
                Self::writable(t)?;
                t.write(key.as_ref(), Some(value.into()))
            }
        }
        Ok(())
    }

    /// On PostgreSQL, writes are refused once a commit failed or a lease was lost (sled
    /// refuses them itself).
    fn writable(t: &PgTree) -> Result<(), StoreError> {
        if t.is_failed() {
            return Err(StoreError::Database(
                "the database failed a commit: writes wait for the node's restart".into(),
            ));
        }
        Ok(())
    }

    /// On sled, removing a key that is not there writes nothing and counts nothing; on
    /// PostgreSQL the delete is batched unread, so it always counts.
    pub(crate) fn remove<K: AsRef<[u8]>>(&self, key: K) -> Result<(), StoreError> {
        match &self.kind {
            Kind::Sled(t) => {
                let mut held = self.tap.hold();
                if t.remove(key.as_ref()).inspect_err(|e| self.health.sled(e))?.is_some() {
                    self.writes.fetch_add(1, Ordering::Relaxed);
                    held.push(t.name(), key.as_ref(), None);
                }
            }
            Kind::Pg(t) => {
                Self::writable(t)?;
                self.writes.fetch_add(1, Ordering::Relaxed);
                t.write(key.as_ref(), None);
            }
        }
        Ok(())
    }

    /// Records with keys in `range`, in key order (`.rev()` for the other way).
    pub(crate) fn range<K: AsRef<[u8]>, R: RangeBounds<K>>(&self, range: R) -> Iter {
        match &self.kind {
            Kind::Sled(t) => Iter(IterKind::Sled(t.range(range))),
            Kind::Pg(t) => Iter(IterKind::Pg(t.range(owned(range.start_bound()), owned(range.end_bound())))),
        }
    }

    /// `range` in key order, for records read once: sled pages out what it reads from disk for
    /// it right away, so the scan neither stays in memory nor evicts the pages writers use
    /// (vendor/sled/PIGEON.md, change 10). PostgreSQL reads it as `range`.
    pub(crate) fn range_cold<K: AsRef<[u8]>, R: RangeBounds<K>>(&self, range: R) -> Iter {
        match &self.kind {
            Kind::Sled(t) => Iter(IterKind::Sled(t.range_cold(range))),
            Kind::Pg(_) => self.range(range),
        }
    }

    /// Records whose keys start with `prefix`, in key order.
    pub(crate) fn scan_prefix<P: AsRef<[u8]>>(&self, prefix: P) -> Iter {
        match &self.kind {
            Kind::Sled(t) => Iter(IterKind::Sled(t.scan_prefix(prefix))),
            Kind::Pg(t) => {
                let p = prefix.as_ref();
                let end = prefix_end(p).map_or(Bound::Unbounded, Bound::Excluded);
                Iter(IterKind::Pg(t.range(Bound::Included(p.to_vec()), end)))
            }
        }
    }

    /// How many records have keys starting with `prefix` (their keys are read, not decoded).
    pub(crate) fn count_prefix<P: AsRef<[u8]>>(&self, prefix: P) -> Result<usize, StoreError> {
        self.scan_prefix(prefix).keys().try_fold(0, |n, k| k.map(|_| n + 1))
    }

    /// Every record, in key order.
    pub(crate) fn iter(&self) -> Iter {
        self.range::<&[u8], _>(..)
    }

    /// Counts writes made by a [`Writes`] that named this tree first.
    fn count(&self, writes: u64) {
        self.writes.fetch_add(writes, Ordering::Relaxed);
    }
}

/// What the families' shared readers ([`super::page`], [`super::get_of`]) read from: a tree, or
/// a family split into spans (`spans.rs`).
pub(crate) trait Records {
    /// Records between two keys, in key order or (`rev`) the other way.
    fn records(
        &self,
        lo: Bound<Vec<u8>>,
        hi: Bound<Vec<u8>>,
        rev: bool,
    ) -> impl Iterator<Item = Result<(IVec, IVec), StoreError>>;

    /// One record.
    fn record(&self, key: &[u8]) -> Result<Option<IVec>, StoreError>;
}

impl Records for Tree {
    fn records(
        &self,
        lo: Bound<Vec<u8>>,
        hi: Bound<Vec<u8>>,
        rev: bool,
    ) -> impl Iterator<Item = Result<(IVec, IVec), StoreError>> {
        let iter = self.range::<Vec<u8>, _>((lo, hi));
        if rev {
            iter.rev()
        } else {
            iter
        }
    }

    fn record(&self, key: &[u8]) -> Result<Option<IVec>, StoreError> {
        self.get(key)
    }
}

/// Records in key order, from either engine.
pub(crate) struct Iter(IterKind);

enum IterKind {
    Sled(sled::Iter),
    SledRev(std::iter::Rev<sled::Iter>),
    Pg(PgIter),
}

impl Iter {
    /// The same records in the other order. Call it before reading any.
    pub(crate) fn rev(self) -> Iter {
        Iter(match self.0 {
            IterKind::Sled(i) => IterKind::SledRev(i.rev()),
            IterKind::SledRev(_) => unreachable!("reversed twice"),
            IterKind::Pg(i) => IterKind::Pg(i.rev()),
        })
    }

    /// The keys alone.
    pub(crate) fn keys(self) -> impl Iterator<Item = Result<IVec, StoreError>> {
        self.map(|kv| kv.map(|(k, _)| k))
    }
}

impl Iterator for Iter {
    type Item = Result<(IVec, IVec), StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            IterKind::Sled(i) => i.next().map(|kv| kv.map_err(StoreError::from)),
            IterKind::SledRev(i) => i.next().map(|kv| kv.map_err(StoreError::from)),
            IterKind::Pg(i) => i.next(),
        }
    }
}

/// Writes to one or more trees of a store that land together or not at all (a record and its
/// indexes): a sled batch or transaction, or one step of the PostgreSQL store's write set.
#[derive(Default)]
pub(crate) struct Writes<'t> {
    ops: Vec<(&'t Tree, Vec<u8>, Option<IVec>)>,
}

impl<'t> Writes<'t> {
    pub(crate) fn insert<K: AsRef<[u8]>, V: Into<IVec>>(&mut self, tree: &'t Tree, key: K, value: V) {
        self.ops.push((tree, key.as_ref().to_vec(), Some(value.into())));
    }

    pub(crate) fn remove<K: AsRef<[u8]>>(&mut self, tree: &'t Tree, key: K) {
        self.ops.push((tree, key.as_ref().to_vec(), None));
    }

    /// Applies every write, atomically.
    pub(crate) fn apply(self) -> Result<(), StoreError> {
        let Some((first, _, _)) = self.ops.first() else { return Ok(()) };
        let first = *first;
        first.count(self.ops.len() as u64);
        match &first.kind {
            Kind::Sled(_) => self.apply_sled(first),
            Kind::Pg(t) => {
                Tree::writable(t)?;
                let ops = self.ops.into_iter().map(|(tree, k, v)| match &tree.kind {
                    Kind::Pg(t) => (t.id(), k, v),
                    Kind::Sled(_) => unreachable!("one store has one engine"),
                });
                t.write_all(ops);
                Ok(())
            }
        }
    }

    fn apply_sled(self, first: &Tree) -> Result<(), StoreError> {
        let sled_of = |t: &Tree| match &t.kind {
            Kind::Sled(s) => s.clone(),
            Kind::Pg(_) => unreachable!("one store has one engine"),
        };
        let mut trees: Vec<sled::Tree> = Vec::new();
        let mut ops = Vec::with_capacity(self.ops.len());
        for (tree, k, v) in self.ops {
            let s = sled_of(tree);
            let i = match trees.iter().position(|t| t.name() == s.name()) {
                Some(i) => i,
                None => {
                    trees.push(s);
                    trees.len() - 1
                }
            };
            ops.push((i, k, v));
        }
        // Held until the writes are logged, so a backup's copy gets them whole (`backup.rs`).
        let mut held = first.tap.hold();
        let logged = held.is_on().then(|| {
            ops.iter()
                .map(|(i, k, v)| crate::backup::Op::new(trees[*i].name(), k.clone(), v.clone()))
                .collect()
        });
        if let [only] = trees.as_slice() {
            let mut batch = sled::Batch::default();
            for (_, k, v) in ops {
                match v {
                    Some(v) => batch.insert(k, v),
                    None => batch.remove(k),
                }
            }
            only.apply_batch(batch).inspect_err(|e| first.health.sled(e))?;
            held.push_all(logged);
            return Ok(());
        }
        use sled::transaction::ConflictableTransactionError as Cte;
        use sled::Transactional;
        let refs: Vec<&sled::Tree> = trees.iter().collect();
        refs.as_slice()
            .transaction(|tx| {
                for (i, k, v) in &ops {
                    match v {
                        Some(v) => tx[*i].insert(k.as_slice(), v.clone())?,
                        None => tx[*i].remove(k.as_slice())?,
                    };
                }
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)?;
        held.push_all(logged);
        Ok(())
    }
}
