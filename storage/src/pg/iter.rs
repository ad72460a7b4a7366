//! Range reads of a PostgreSQL tree: the table a chunk at a time, merged with the write set.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::Arc;

use tokio_postgres::types::ToSql;

use super::schema::TREES;
use super::{db_err, Pg, CHUNK};
use crate::StoreError;
use sled::IVec;

/// A key and its value, as read from a table.
type Row = (Vec<u8>, Vec<u8>);

/// Whether a range holds any key at all (`BTreeMap::range` panics on one that cannot).
fn non_empty(lo: &Bound<Vec<u8>>, hi: &Bound<Vec<u8>>) -> bool {
    match (lo, hi) {
        (Bound::Included(a), Bound::Included(b)) => a <= b,
        (Bound::Included(a), Bound::Excluded(b))
        | (Bound::Excluded(a), Bound::Included(b))
        | (Bound::Excluded(a), Bound::Excluded(b)) => a < b,
        _ => true,
    }
}

/// A range of a PostgreSQL tree, read a chunk at a time and merged with the write set.
pub(crate) struct PgIter {
    pub(super) pg: Arc<Pg>,
    pub(super) id: usize,
    /// What is left to read.
    pub(super) lo: Bound<Vec<u8>>,
    pub(super) hi: Bound<Vec<u8>>,
    pub(super) rev: bool,
    pub(super) buf: VecDeque<(IVec, IVec)>,
    pub(super) done: bool,
}

impl PgIter {
    /// Highest keys first. Call before reading.
    pub(crate) fn rev(mut self) -> Self {
        self.rev = !self.rev;
        self
    }

    /// The next chunk: rows of the table from where the last chunk ended, then the write set's
    /// entries over the keys those rows cover (which win). The write set is read after the table,
    /// so a flush that committed and left the set in between would hide its writes from both: the
    /// `flushed` count says so, and the chunk is read again.
    fn fill(&mut self) -> Result<(), StoreError> {
        while self.buf.is_empty() && !self.done {
            if !non_empty(&self.lo, &self.hi) {
                self.done = true;
                break;
            }
            let before = self.pg.write_set().flushed;
            let rows = self.read_table()?;
            let full = rows.len() as i64 == CHUNK;
            let set = self.pg.write_set();
            if set.flushed != before {
                continue;
            }
            let last = rows.last().map(|(k, _)| k.clone());
            let (lo, hi) = match (&last, full, self.rev) {
                (Some(l), true, false) => (self.lo.clone(), Bound::Included(l.clone())),
                (Some(l), true, true) => (Bound::Included(l.clone()), self.hi.clone()),
                _ => (self.lo.clone(), self.hi.clone()),
            };
            let mut merged: BTreeMap<Vec<u8>, IVec> =
                rows.into_iter().map(|(k, v)| (k, IVec::from(v))).collect();
            if non_empty(&lo, &hi) {
                for (k, d) in set.trees[self.id].range::<Vec<u8>, _>((lo, hi)) {
                    match &d.value {
                        Some(v) => merged.insert(k.clone(), v.clone()),
                        None => merged.remove(k),
                    };
                }
            }
            drop(set);
            match (last, full) {
                (Some(l), true) if self.rev => self.hi = Bound::Excluded(l),
                (Some(l), true) => self.lo = Bound::Excluded(l),
                _ => self.done = true,
            }
            let rows = merged.into_iter().map(|(k, v)| (IVec::from(k), v));
            if self.rev {
                self.buf.extend(rows.rev());
            } else {
                self.buf.extend(rows);
            }
        }
        Ok(())
    }

    /// Up to [`CHUNK`] rows of the table within the bounds, in the iterator's order.
    fn read_table(&self) -> Result<Vec<Row>, StoreError> {
        let mut cond = Vec::new();
        let mut params: Vec<Vec<u8>> = Vec::new();
        for (b, inc, exc) in [(&self.lo, ">=", ">"), (&self.hi, "<=", "<")] {
            let (op, k) = match b {
                Bound::Included(k) => (inc, k),
                Bound::Excluded(k) => (exc, k),
                Bound::Unbounded => continue,
            };
            params.push(k.clone());
            cond.push(format!("k {op} ${}", params.len()));
        }
        let sql = format!(
            "SELECT k, v FROM pigeon.\"{}\"{}{} ORDER BY k{} LIMIT {CHUNK}",
            TREES[self.id],
            if cond.is_empty() { "" } else { " WHERE " },
            cond.join(" AND "),
            if self.rev { " DESC" } else { "" },
        );
        let pool = self.pg.pool.clone();
        self.pg.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            let stmt = c.prepare_cached(&sql).await.map_err(db_err)?;
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
            let rows = c.query(&stmt, &refs).await.map_err(db_err)?;
            Ok(rows.into_iter().map(|r| (r.get::<_, Vec<u8>>(0), r.get::<_, Vec<u8>>(1))).collect())
        })
    }
}

impl Iterator for PgIter {
    type Item = Result<(IVec, IVec), StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Err(e) = self.fill() {
            self.done = true;
            return Some(Err(e));
        }
        self.buf.pop_front().map(Ok)
    }
}
