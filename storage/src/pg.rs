//! The PostgreSQL store: the same trees as on sled, one table each (`pigeon."<tree>"`, a `bytea`
//! key and a `bytea` value), so every family runs unchanged on both engines (`store/tree.rs`).
//!
//! Why it is fast enough: nothing on the write path waits for the database. A write lands in an
//! in-memory write set at once (what sled's pages are on the other engine), reads look there
//! first, and the group committer writes everything since its last flush as **one transaction of
//! multi-row statements** (`INSERT … SELECT * FROM UNNEST($1, $2) ON CONFLICT …`, `DELETE … =
//! ANY($1)`), across all tenants: the batched shape `../shared/research/postgres-write-pattern.md`
//! measured at ~40k messages/s, against ~4k/s for a transaction per message. A commit's waiters
//! are answered only after PostgreSQL's `COMMIT` returned; a failed transaction leaves its writes
//! in the set, whole, for the next flush, so nothing is ever applied in part.
//!
//! Reads that miss the write set go to the database: one query by key, or a range read in
//! chunks merged with the write set. Callers are synchronous (the families are), so a read runs on
//! the store's own runtime and the caller waits on a channel, the way a sled read waits on a page.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::types::ToSql;
use tokio_postgres::NoTls;

use crate::store::tree::IVec;
use crate::StoreError;

/// Every tree the store opens, each a table of the same name in the `pigeon` schema. A new tree
/// needs a migration that creates its table.
const TREES: &[&str] = &[
    "meta",
    "tenants",
    "counters",
    "keys",
    "key_hashes",
    "key_ids",
    "phones",
    "phone_ids",
    "phone_tokens",
    "messages",
    "pending",
    "schedule",
    "recipients",
    "idempotency",
    "optouts",
    "detections",
    "webhooks",
    "deliveries",
    "due",
    "templates",
    "template_names",
    "contacts",
    "contact_phones",
    "campaigns",
    "campaign_recipients",
    "campaign_messages",
    "sessions",
];

/// The schema's versions, in order; each runs once, in the transaction that records it.
/// Messages, deliveries and counters are rewritten in place as they change state, so their pages
/// keep room for HOT updates (the research note: the heap tripled under three updates without).
const MIGRATIONS: &[&str] = &[r#"
CREATE TABLE pigeon."meta" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."tenants" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."counters" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 70);
CREATE TABLE pigeon."keys" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."key_hashes" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."key_ids" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."phones" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."phone_ids" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."phone_tokens" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."messages" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 70);
CREATE TABLE pigeon."pending" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."schedule" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."recipients" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 80);
CREATE TABLE pigeon."idempotency" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."optouts" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."detections" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."webhooks" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."deliveries" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 70);
CREATE TABLE pigeon."due" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."templates" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."template_names" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."contacts" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."contact_phones" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."campaigns" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 80);
CREATE TABLE pigeon."campaign_recipients" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."campaign_messages" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."sessions" (k bytea PRIMARY KEY, v bytea NOT NULL);
"#];

/// The advisory lock nodes take while they bring the schema up to date, so that nodes starting
/// together apply each migration once.
const MIGRATION_LOCK: i64 = 0x7069_6765_6f6e; // "pigeon"

/// Rows read per round trip when walking a range.
const CHUNK: i64 = 256;

/// How long a caller waits for a connection, and a new connection for the database, before
/// the call fails (503 at the edge) instead of hanging.
const WAIT: Duration = Duration::from_secs(3);

/// The longest any call to the database may take, connection wait included: a database that
/// stopped answering (a partition, not a refusal) fails the call instead of hanging it.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// A PostgreSQL database holding one store.
pub(crate) struct Pg {
    /// Taken (and shut down without blocking) on drop: the last handle may go on an async thread.
    rt: Option<tokio::runtime::Runtime>,
    pool: Pool,
    /// The database named without its password, for messages.
    target: String,
    set: Mutex<WriteSet>,
    /// A commit failed: the writes still in the set were never acknowledged and must never be
    /// committed (see `health.rs`); the node restarts once the database answers again.
    failed: std::sync::atomic::AtomicBool,
}

/// Writes not yet committed to the database, per tree, newest value of each key.
struct WriteSet {
    /// Stamps writes, so a flush removes only what it wrote.
    seq: u64,
    /// Bumped each time a flush removes what it committed: a range read that overlapped one
    /// reads again (see [`PgIter::fill`]).
    flushed: u64,
    trees: Vec<BTreeMap<Vec<u8>, Dirty>>,
}

struct Dirty {
    /// `None` deletes the key.
    value: Option<IVec>,
    seq: u64,
}

/// `postgres://user@host:port/db`, never the password.
fn describe(cfg: &tokio_postgres::Config) -> String {
    let host = cfg
        .get_hosts()
        .iter()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(h) => h.clone(),
            tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
        })
        .collect::<Vec<_>>()
        .join(",");
    let ports = cfg.get_ports().iter().map(u16::to_string).collect::<Vec<_>>().join(",");
    format!(
        "postgres://{}@{}:{}/{}",
        cfg.get_user().unwrap_or(""),
        host,
        if ports.is_empty() { "5432".into() } else { ports },
        cfg.get_dbname().unwrap_or("")
    )
}

fn db_err(e: impl std::fmt::Display) -> StoreError {
    StoreError::Database(e.to_string())
}

impl Pg {
    /// Connects to `url` with a pool of `pool` connections and brings the schema up to date.
    /// Fails, naming the database (never its password), when it cannot be reached or its schema
    /// is newer than this binary's.
    pub(crate) fn connect(url: &str, pool: usize) -> Result<Arc<Self>, StoreError> {
        let mut cfg = tokio_postgres::Config::from_str(url)
            .map_err(|e| StoreError::Database(format!("not a PostgreSQL URL: {e}")))?;
        if cfg.get_connect_timeout().is_none() {
            cfg.connect_timeout(WAIT);
        }
        if cfg.get_application_name().is_none() {
            cfg.application_name("pigeon");
        }
        let target = describe(&cfg);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("pigeon-pg")
            .enable_all()
            .build()
            .map_err(db_err)?;
        let manager =
            Manager::from_config(cfg, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let built = {
            let _rt = rt.enter();
            Pool::builder(manager)
                .max_size(pool.max(1))
                .runtime(Runtime::Tokio1)
                .wait_timeout(Some(WAIT))
                .create_timeout(Some(WAIT))
                .recycle_timeout(Some(WAIT))
                .build()
        };
        let pool = built.map_err(db_err)?;
        let pg = Arc::new(Self {
            rt: Some(rt),
            pool,
            target: target.clone(),
            set: Mutex::new(WriteSet {
                seq: 0,
                flushed: 0,
                trees: TREES.iter().map(|_| BTreeMap::new()).collect(),
            }),
            failed: Default::default(),
        });
        let p = pg.pool.clone();
        pg.run(async move { migrate(&p).await }).map_err(|e| {
            StoreError::Database(format!("{target}: {}", e.to_string().trim_start_matches("database: ")))
        })?;
        Ok(pg)
    }

    /// Runs `f` on the store's runtime and waits for it, from any thread (also an async one:
    /// the wait is a plain channel, like a sled read's wait on a page).
    fn run<T: Send + 'static>(
        &self,
        f: impl std::future::Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.rt.as_ref().ok_or(StoreError::Closed)?.spawn(async move {
            let res = tokio::time::timeout(CALL_TIMEOUT, f).await.unwrap_or_else(|_| {
                Err(StoreError::Database(format!("no answer from the database within {CALL_TIMEOUT:?}")))
            });
            let _ = tx.send(res);
        });
        rx.recv().map_err(|_| StoreError::Closed)?
    }

    /// The tree called `name`.
    pub(crate) fn tree(self: &Arc<Self>, name: &str) -> Result<PgTree, StoreError> {
        let id = TREES.iter().position(|t| *t == name).ok_or_else(|| {
            StoreError::Database(format!("no table for the tree {name:?}: it needs a migration"))
        })?;
        Ok(PgTree { pg: self.clone(), id })
    }

    fn write_set(&self) -> std::sync::MutexGuard<'_, WriteSet> {
        self.set.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Commits every write made so far in one transaction; on success they leave the write set
    /// (those written again meanwhile stay, with their newer value).
    pub(crate) fn flush(&self) -> Result<(), String> {
        use std::sync::atomic::Ordering;
        if self.failed.load(Ordering::Relaxed) {
            return Err("an earlier commit failed: writes wait for the node's restart".into());
        }
        let res = self.commit_set();
        if res.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        res
    }

    /// Whether the database answers, on a connection of the pool.
    pub(crate) fn ping(&self) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            c.simple_query("SELECT 1").await.map_err(db_err)?;
            Ok(())
        })
    }

    fn commit_set(&self) -> Result<(), String> {
        let (upto, work) = {
            let set = self.write_set();
            let mut work = Vec::new();
            for (id, tree) in set.trees.iter().enumerate() {
                if tree.is_empty() {
                    continue;
                }
                let (mut up_k, mut up_v, mut del) = (Vec::new(), Vec::new(), Vec::new());
                for (k, d) in tree {
                    match &d.value {
                        Some(v) => {
                            up_k.push(k.clone());
                            up_v.push(v.clone());
                        }
                        None => del.push(k.clone()),
                    }
                }
                work.push((id, up_k, up_v, del));
            }
            (set.seq, work)
        };
        if work.is_empty() {
            return Ok(());
        }
        let pool = self.pool.clone();
        let work = self
            .run(async move {
                let mut client = pool.get().await.map_err(db_err)?;
                let tx = client.transaction().await.map_err(db_err)?;
                for (id, up_k, up_v, del) in &work {
                    let table = TREES[*id];
                    if !up_k.is_empty() {
                        let sql = format!(
                            "INSERT INTO pigeon.\"{table}\" (k, v) SELECT * FROM UNNEST($1::bytea[], $2::bytea[]) \
                             ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v"
                        );
                        let stmt = tx.prepare_cached(&sql).await.map_err(db_err)?;
                        let values: Vec<&[u8]> = up_v.iter().map(|v| v.as_ref()).collect();
                        tx.execute(&stmt, &[up_k, &values]).await.map_err(db_err)?;
                    }
                    if !del.is_empty() {
                        let sql = format!("DELETE FROM pigeon.\"{table}\" WHERE k = ANY($1::bytea[])");
                        let stmt = tx.prepare_cached(&sql).await.map_err(db_err)?;
                        tx.execute(&stmt, &[del]).await.map_err(db_err)?;
                    }
                }
                tx.commit().await.map_err(db_err)?;
                Ok(work)
            })
            .map_err(|e| format!("{}: {e}", self.target))?;
        let mut set = self.write_set();
        for (id, up_k, _, del) in work {
            let tree = &mut set.trees[id];
            for k in up_k.iter().chain(&del) {
                if tree.get(k).is_some_and(|d| d.seq <= upto) {
                    tree.remove(k);
                }
            }
        }
        set.flushed += 1;
        Ok(())
    }

    /// Bytes the store's tables take, indexes and TOAST included.
    pub(crate) fn size_on_disk(&self) -> Result<u64, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            let row = c
                .query_one(
                    "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c \
                     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'pigeon' AND c.relkind = 'r'",
                    &[],
                )
                .await
                .map_err(db_err)?;
            Ok(row.get::<_, i64>(0).max(0) as u64)
        })
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

/// Brings the schema up to date, under an advisory lock, in one transaction.
async fn migrate(pool: &Pool) -> Result<(), StoreError> {
    let mut client = pool.get().await.map_err(db_err)?;
    let tx = client.transaction().await.map_err(db_err)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(db_err)?;
    tx.batch_execute(
        "CREATE SCHEMA IF NOT EXISTS pigeon; CREATE TABLE IF NOT EXISTS pigeon.schema_version \
         (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    )
    .await
    .map_err(db_err)?;
    let have: i32 = tx
        .query_one("SELECT coalesce(max(version), 0) FROM pigeon.schema_version", &[])
        .await
        .map_err(db_err)?
        .get(0);
    let ours = MIGRATIONS.len() as i32;
    if have > ours {
        return Err(StoreError::Database(format!(
            "the database's schema is version {have}, newer than this pigeon's ({ours}): run a pigeon at least as new"
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(have.max(0) as usize) {
        tx.batch_execute(sql).await.map_err(db_err)?;
        tx.execute("INSERT INTO pigeon.schema_version (version) VALUES ($1)", &[&(i as i32 + 1)])
            .await
            .map_err(db_err)?;
        tracing::info!(version = i + 1, "database schema migrated");
    }
    tx.commit().await.map_err(db_err)
}

/// One tree of a PostgreSQL store.
#[derive(Clone)]
pub(crate) struct PgTree {
    pg: Arc<Pg>,
    id: usize,
}

impl PgTree {
    pub(crate) fn id(&self) -> usize {
        self.id
    }

    /// One value: the write set's, else the table's.
    pub(crate) fn get(&self, key: &[u8]) -> Result<Option<IVec>, StoreError> {
        if let Some(d) = self.pg.write_set().trees[self.id].get(key) {
            return Ok(d.value.clone());
        }
        let (pool, key) = (self.pg.pool.clone(), key.to_vec());
        let sql = format!("SELECT v FROM pigeon.\"{}\" WHERE k = $1", TREES[self.id]);
        self.pg.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            let stmt = c.prepare_cached(&sql).await.map_err(db_err)?;
            let row = c.query_opt(&stmt, &[&key]).await.map_err(db_err)?;
            Ok(row.map(|r| IVec::from(r.get::<_, &[u8]>(0))))
        })
    }

    /// Writes (or, with `None`, deletes) one key; committed with the next flush.
    pub(crate) fn write(&self, key: &[u8], value: Option<IVec>) {
        let mut set = self.pg.write_set();
        set.seq += 1;
        let seq = set.seq;
        set.trees[self.id].insert(key.to_vec(), Dirty { value, seq });
    }

    /// Several writes to trees of this store, seen by readers all at once and committed together.
    pub(crate) fn write_all(&self, ops: impl Iterator<Item = (usize, Vec<u8>, Option<IVec>)>) {
        let mut set = self.pg.write_set();
        set.seq += 1;
        let seq = set.seq;
        for (id, k, value) in ops {
            set.trees[id].insert(k, Dirty { value, seq });
        }
    }

    /// Records with keys between the bounds, in key order.
    pub(crate) fn range(&self, lo: Bound<Vec<u8>>, hi: Bound<Vec<u8>>) -> PgIter {
        PgIter { pg: self.pg.clone(), id: self.id, lo, hi, rev: false, buf: VecDeque::new(), done: false }
    }
}

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
    pg: Arc<Pg>,
    id: usize,
    /// What is left to read.
    lo: Bound<Vec<u8>>,
    hi: Bound<Vec<u8>>,
    rev: bool,
    buf: VecDeque<(IVec, IVec)>,
    done: bool,
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

#[cfg(any(test, feature = "pg-testing"))]
pub mod testing;

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(pg: &Arc<Pg>) -> PgTree {
        pg.tree("meta").unwrap()
    }

    fn keys(it: PgIter) -> Vec<u32> {
        it.map(|kv| u32::from_be_bytes(kv.unwrap().0.as_ref().try_into().unwrap())).collect()
    }

    /// Ranges longer than a chunk, both ways, with the write set's inserts and deletes on both
    /// sides of the chunks' edges, before and after a flush.
    #[test]
    fn ranges_merge_the_table_and_the_write_set_across_chunks() {
        let pg = Pg::connect(&testing::database_url(), 2).unwrap();
        let t = tree(&pg);
        for i in (0..1000u32).step_by(2) {
            t.write(&i.to_be_bytes(), Some(IVec::from(&b"v"[..])));
        }
        pg.flush().unwrap();
        assert!(pg.write_set().trees.iter().all(BTreeMap::is_empty), "a flush empties the set");
        // Not yet committed: odd keys in, multiples of 10 out.
        for i in (1..1000u32).step_by(2) {
            t.write(&i.to_be_bytes(), Some(IVec::from(&b"w"[..])));
        }
        for i in (0..1000u32).step_by(10) {
            t.write(&i.to_be_bytes(), None);
        }
        let want: Vec<u32> = (0..1000).filter(|i| i % 10 != 0).collect();
        let lo = 3u32.to_be_bytes().to_vec();
        let hi = 997u32.to_be_bytes().to_vec();
        let got = keys(t.range(Bound::Included(lo.clone()), Bound::Excluded(hi.clone())));
        let part: Vec<u32> = want.iter().copied().filter(|i| (3..997).contains(i)).collect();
        assert_eq!(got, part);
        let mut back = keys(t.range(Bound::Excluded(lo), Bound::Included(hi)).rev());
        back.reverse();
        assert_eq!(back, want.iter().copied().filter(|i| (4..=997).contains(i)).collect::<Vec<_>>());
        assert_eq!(keys(t.range(Bound::Unbounded, Bound::Unbounded)), want);
        pg.flush().unwrap();
        assert_eq!(keys(t.range(Bound::Unbounded, Bound::Unbounded)), want, "the same once committed");
        assert_eq!(t.get(&5u32.to_be_bytes()).unwrap().as_deref(), Some(&b"w"[..]));
        assert_eq!(t.get(&10u32.to_be_bytes()).unwrap(), None);
        // An empty or inverted range reads nothing.
        assert!(keys(t.range(Bound::Excluded(vec![1]), Bound::Excluded(vec![1]))).is_empty());
        assert!(keys(t.range(Bound::Included(vec![2]), Bound::Included(vec![1]))).is_empty());
    }

    /// A write made while its flush runs keeps its newer value in the set.
    #[test]
    fn a_key_written_again_during_a_flush_stays_for_the_next() {
        let pg = Pg::connect(&testing::database_url(), 2).unwrap();
        let t = tree(&pg);
        t.write(b"k", Some(IVec::from(&b"1"[..])));
        // What a flush does first: note the stamp it will remove up to.
        let upto = pg.write_set().seq;
        t.write(b"k", Some(IVec::from(&b"2"[..])));
        assert!(pg.write_set().trees[t.id][&b"k"[..]].seq > upto);
        pg.flush().unwrap();
        assert_eq!(t.get(b"k").unwrap().as_deref(), Some(&b"2"[..]));
    }

    #[test]
    fn a_newer_schema_is_refused_and_an_unreachable_database_is_named_without_its_password() {
        let url = testing::database_url();
        drop(Pg::connect(&url, 1).unwrap());
        // Applying again changes nothing.
        drop(Pg::connect(&url, 1).unwrap());
        let pg = Pg::connect(&url, 1).unwrap();
        let pool = pg.pool.clone();
        pg.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            c.execute("INSERT INTO pigeon.schema_version (version) VALUES (99)", &[])
                .await
                .map_err(db_err)?;
            Ok(())
        })
        .unwrap();
        let e = Pg::connect(&url, 1).err().expect("a newer schema is refused").to_string();
        assert!(e.contains("version 99, newer than this pigeon's"), "{e}");

        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let e = Pg::connect(&format!("postgres://pigeon:s3cret@127.0.0.1:{port}/nowhere"), 1)
            .err()
            .expect("nothing listens there")
            .to_string();
        assert!(e.contains(&format!("postgres://pigeon@127.0.0.1:{port}/nowhere")), "{e}");
        assert!(!e.contains("s3cret"), "{e}");
    }
}
