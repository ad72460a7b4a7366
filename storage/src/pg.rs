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
use tokio_postgres::NoTls;

mod cache;
mod fleet;
mod iter;
mod media;
mod schema;
mod tls;

pub use fleet::{Acquired, FleetConfig, Leases, NodeInfo, Owner};
pub(crate) use iter::PgIter;
pub(crate) use schema::TREES;
use schema::{dedicated, migrate};

use crate::StoreError;
use sled::IVec;

/// Rows read per round trip when walking a range.
pub(super) const CHUNK: i64 = 256;

/// How long a caller waits for a connection, and a new connection for the database, before
/// the call fails (503 at the edge) instead of hanging.
const WAIT: Duration = Duration::from_secs(3);

/// The longest any call to the database may take, connection wait included: a database that
/// stopped answering (a partition, not a refusal) fails the call instead of hanging it.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// A PostgreSQL database holding one store.
pub(crate) struct Pg {
    rt: Background,
    pool: Pool,
    /// The database named without its password, for messages.
    target: String,
    /// A connection of its own, for the health probe (see [`schema::dedicated`]).
    conn: Arc<tokio::sync::Mutex<deadpool_postgres::ClientWrapper>>,
    /// Whether this node has the database to itself (`--single-node`): the probe's connection
    /// holds the lock that says so ([`schema::hold_kind`]).
    alone: bool,
    /// The leases this node holds, as one of a fleet (`fleet.rs`); `None` on its own
    /// (`--single-node`), which [`schema::on_its_own`] makes sure of.
    fleet: Option<Arc<Leases>>,
    /// Stops the lease renewals when the store closes.
    closing: tokio::sync::watch::Sender<bool>,
    set: Mutex<WriteSet>,
    /// Each table's read cache holds at most this many bytes.
    cache_bytes: usize,
    /// A commit failed, or a lease was lost: the writes still in the set were never acknowledged
    /// and must never be committed (see `health.rs`); the node restarts once the database answers.
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
    /// Each table's read cache (`cache.rs`), kept under the same lock as the writes it follows.
    caches: Vec<cache::Cache>,
}

impl WriteSet {
    /// One write at the current stamp: into the set, and into the table's read cache.
    fn record(&mut self, id: usize, key: Vec<u8>, value: Option<IVec>, cache_bytes: usize) {
        let cache = &mut self.caches[id];
        cache.writes += 1;
        cache.put(key.clone(), value.clone(), cache_bytes);
        self.trees[id].insert(key, Dirty { value, seq: self.seq });
    }
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

/// The error and its causes, outermost first ("error performing TLS handshake: invalid peer
/// certificate: UnknownIssuer"), each said once.
fn db_err(e: impl std::error::Error) -> StoreError {
    let mut said = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !said.contains(&text) {
            said = format!("{said}: {text}");
        }
        cause = c.source();
    }
    StoreError::Database(said)
}

impl Pg {
    /// Connects to `url` with a pool of `pool` connections and brings the schema up to date, then
    /// joins the database's fleet (`fleet`) or takes the database for this node alone (`None`).
    /// Fails, naming the database (never its password), when it cannot be reached, its schema
    /// is newer than this binary's, or a node of the other kind uses it.
    pub(crate) fn connect(
        url: &str,
        pool: usize,
        cache_bytes: usize,
        fleet: Option<FleetConfig>,
        on_lost: impl Fn(&StoreError) + Send + 'static,
    ) -> Result<Arc<Self>, StoreError> {
        let parsed = tls::parse(url);
        let mut cfg = tokio_postgres::Config::from_str(&parsed.url)
            .map_err(|e| StoreError::Database(format!("not a PostgreSQL URL: {e}")))?;
        if cfg.get_connect_timeout().is_none() {
            cfg.connect_timeout(WAIT);
        }
        if cfg.get_application_name().is_none() {
            cfg.application_name("pigeon");
        }
        let target = describe(&cfg);
        let rt = Background(Some(
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("pigeon-pg")
                .enable_all()
                .build()
                .map_err(db_err)?,
        ));
        let handle = rt.0.as_ref().expect("just built");
        let recycling = ManagerConfig { recycling_method: RecyclingMethod::Fast };
        let manager = if cfg.get_ssl_mode() == tokio_postgres::config::SslMode::Require {
            let connector = tls::connector(parsed.root_cert.as_deref())
                .map_err(|e| StoreError::Database(format!("{target}: {e}")))?;
            Manager::from_config(cfg, connector, recycling)
        } else {
            Manager::from_config(cfg, NoTls, recycling)
        };
        let built = {
            let _rt = handle.enter();
            Pool::builder(manager)
                .max_size(pool.max(1))
                .runtime(Runtime::Tokio1)
                .wait_timeout(Some(WAIT))
                .create_timeout(Some(WAIT))
                .recycle_timeout(Some(WAIT))
                .build()
        };
        let pool = built.map_err(db_err)?;
        let p = pool.clone();
        let alone = fleet.is_none();
        let (conn, fleet) = run_on(handle, async move {
            migrate(&p).await?;
            let conn = dedicated(&p).await?;
            schema::hold_kind(&conn, alone).await?;
            let fleet = match fleet {
                Some(f) => Some(Arc::new(Leases::join(&p, f).await?)),
                None => None,
            };
            Ok((conn, fleet))
        })
        .map_err(|e| {
            StoreError::Database(format!("{target}: {}", e.to_string().trim_start_matches("database: ")))
        })?;
        let (closing, closed) = tokio::sync::watch::channel(false);
        if let Some(f) = &fleet {
            handle.spawn(fleet::renew_loop(f.clone(), pool.clone(), closed, on_lost));
        }
        let pg = Arc::new(Self {
            rt,
            pool,
            target,
            conn: Arc::new(tokio::sync::Mutex::new(conn)),
            alone,
            fleet,
            closing,
            set: Mutex::new(WriteSet {
                seq: 0,
                flushed: 0,
                trees: TREES.iter().map(|_| BTreeMap::new()).collect(),
                caches: TREES.iter().map(|_| cache::Cache::default()).collect(),
            }),
            cache_bytes,
            failed: Default::default(),
        });
        Ok(pg)
    }

    /// Runs `f` on the store's runtime and waits for it, from any thread (also an async one:
    /// the wait is a plain channel, like a sled read's wait on a page).
    fn run<T: Send + 'static>(
        &self,
        f: impl std::future::Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        run_on(self.rt.0.as_ref().ok_or(StoreError::Closed)?, f)
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

    /// Whether the database answers, asked on the store's own connection (made again when the
    /// database restarted).
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        let (pool, conn, alone) = (self.pool.clone(), self.conn.clone(), self.alone);
        self.run(async move {
            let mut held = conn.lock().await;
            if held.is_closed() {
                let conn = dedicated(&pool).await?;
                schema::hold_kind(&conn, alone).await?;
                *held = conn;
            }
            held.simple_query("SELECT 1").await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Ends writing: the next flush fails, and with it the node's health (a lost lease).
    pub(crate) fn stop_writing(&self) {
        self.failed.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The leases this node holds as one of a fleet (`None` on its own).
    pub(crate) fn leases(&self) -> Option<&Arc<Leases>> {
        self.fleet.as_ref()
    }

    /// The fleet's leases, for the calls only a node of a fleet makes.
    fn joined(&self) -> Result<Arc<Leases>, StoreError> {
        self.fleet
            .clone()
            .ok_or_else(|| StoreError::Database("this node is on its own: it has no leases".into()))
    }

    /// Who owns `tenant`.
    pub(crate) fn owner(&self, tenant: ulid::Ulid) -> Result<Owner, StoreError> {
        let fleet = self.joined()?;
        if fleet.holds(tenant) {
            return Ok(Owner::Me);
        }
        let pool = self.pool.clone();
        self.run(async move { fleet.owner(&pool, tenant).await })
    }

    /// Takes `tenant`'s lease if no other node holds it; a tenant taken from another node starts
    /// with empty caches, so nothing the node read before it owned the tenant is served.
    pub(crate) fn acquire(&self, tenant: ulid::Ulid) -> Result<Acquired, StoreError> {
        let (fleet, pool) = (self.joined()?, self.pool.clone());
        let got = self.run(async move { fleet.acquire(&pool, tenant).await })?;
        if matches!(got, Acquired::Taken { .. }) {
            let mut set = self.write_set();
            for (id, cache) in set.caches.iter_mut().enumerate() {
                // A read on its way back from before the lease must not fill the cache.
                cache.writes += 1;
                if !fleet::tenant_keyed(TREES[id]) {
                    cache.clear();
                }
            }
        }
        Ok(got)
    }

    /// Tenants that need an owner and have none (see [`Fleet::orphans`]).
    pub(crate) fn orphans(&self, limit: i64, work_lists: bool) -> Result<Vec<ulid::Ulid>, StoreError> {
        let (fleet, pool) = (self.joined()?, self.pool.clone());
        self.run(async move { fleet.orphans(&pool, limit, work_lists).await })
    }

    /// The live nodes.
    pub(crate) fn nodes(&self) -> Result<Vec<NodeInfo>, StoreError> {
        let (fleet, pool) = (self.joined()?, self.pool.clone());
        self.run(async move { fleet.nodes(&pool).await })
    }

    /// Lets this node's leases go (a graceful stop, after the last commit); `owing`: the
    /// tenants that still owe work.
    pub(crate) fn release(&self, owing: Vec<Vec<u8>>) -> Result<(), StoreError> {
        let _ = self.closing.send(true);
        let (fleet, pool) = (self.joined()?, self.pool.clone());
        self.run(async move { fleet.release(&pool, owing).await })
    }

    /// Whether writes are refused (a commit failed, or a lease was lost).
    pub(crate) fn is_failed(&self) -> bool {
        self.failed.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn commit_set(&self) -> Result<(), String> {
        let (upto, work, tenants) = {
            let set = self.write_set();
            let mut work = Vec::new();
            let mut tenants = std::collections::HashSet::new();
            for (id, tree) in set.trees.iter().enumerate() {
                if tree.is_empty() {
                    continue;
                }
                let (mut up_k, mut up_v, mut del) = (Vec::new(), Vec::new(), Vec::new());
                for (k, d) in tree {
                    if let Some(t) = fleet::tenant_of(TREES[id], k, d.value.as_deref()) {
                        if let Ok(t) = <[u8; 16]>::try_from(t) {
                            tenants.insert(t);
                        }
                    }
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
            (set.seq, work, tenants)
        };
        if work.is_empty() {
            return Ok(());
        }
        let (pool, fleet) = (self.pool.clone(), self.fleet.clone());
        let work = self
            .run(async move {
                let mut client = pool.get().await.map_err(db_err)?;
                let tx = client.transaction().await.map_err(db_err)?;
                if let Some(fleet) = &fleet {
                    fleet.fence(&tx, &tenants).await?;
                }
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

/// The store's runtime, shut down without blocking when dropped: the last handle may go on an
/// async thread, where a runtime's ordinary drop panics.
struct Background(Option<tokio::runtime::Runtime>);

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_background();
        }
    }
}

/// Runs `f` on `rt` within [`CALL_TIMEOUT`] and waits for it on a channel.
fn run_on<T: Send + 'static>(
    rt: &tokio::runtime::Runtime,
    f: impl std::future::Future<Output = Result<T, StoreError>> + Send + 'static,
) -> Result<T, StoreError> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    rt.spawn(async move {
        let res = tokio::time::timeout(CALL_TIMEOUT, f).await.unwrap_or_else(|_| {
            Err(StoreError::Database(format!("no answer from the database within {CALL_TIMEOUT:?}")))
        });
        let _ = tx.send(res);
    });
    rx.recv().map_err(|_| StoreError::Closed)?
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

    /// Whether the store refuses writes.
    pub(crate) fn is_failed(&self) -> bool {
        self.pg.is_failed()
    }

    /// One value: the write set's, else the table's.
    /// One value: the write set's, else the cache's, else the table's (then cached, unless a
    /// write to the table passed the read).
    pub(crate) fn get(&self, key: &[u8]) -> Result<Option<IVec>, StoreError> {
        let writes = {
            let set = self.pg.write_set();
            if let Some(d) = set.trees[self.id].get(key) {
                return Ok(d.value.clone());
            }
            if let Some(v) = set.caches[self.id].get(key) {
                return Ok(v);
            }
            set.caches[self.id].writes
        };
        let (pool, owned) = (self.pg.pool.clone(), key.to_vec());
        let sql = format!("SELECT v FROM pigeon.\"{}\" WHERE k = $1", TREES[self.id]);
        let value = self.pg.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            let stmt = c.prepare_cached(&sql).await.map_err(db_err)?;
            let row = c.query_opt(&stmt, &[&owned]).await.map_err(db_err)?;
            Ok(row.map(|r| IVec::from(r.get::<_, &[u8]>(0))))
        })?;
        // Another node may change what this node does not own: only a held tenant's keys are
        // cached, and of the global indexes only what exists (a value there never changes;
        // absence may end on another node at any time).
        let table = TREES[self.id];
        let cacheable = if fleet::tenant_keyed(table) {
            key.get(..16).is_some_and(|t| self.pg.fleet.as_ref().is_none_or(|f| f.taken(t)))
        } else {
            value.is_some() && table != "sessions" && table != "meta"
        };
        let mut set = self.pg.write_set();
        let cache = &mut set.caches[self.id];
        if cacheable && cache.writes == writes {
            cache.put(key.to_vec(), value.clone(), self.pg.cache_bytes);
        }
        Ok(value)
    }

    /// Writes (or, with `None`, deletes) one key; committed with the next flush.
    pub(crate) fn write(&self, key: &[u8], value: Option<IVec>) {
        let mut set = self.pg.write_set();
        set.seq += 1;
        set.record(self.id, key.to_vec(), value, self.pg.cache_bytes);
    }

    /// Several writes to trees of this store, seen by readers all at once and committed together.
    pub(crate) fn write_all(&self, ops: impl Iterator<Item = (usize, Vec<u8>, Option<IVec>)>) {
        let mut set = self.pg.write_set();
        set.seq += 1;
        for (id, k, value) in ops {
            set.record(id, k, value, self.pg.cache_bytes);
        }
    }

    /// Records with keys between the bounds, in key order.
    pub(crate) fn range(&self, lo: Bound<Vec<u8>>, hi: Bound<Vec<u8>>) -> PgIter {
        PgIter { pg: self.pg.clone(), id: self.id, lo, hi, rev: false, buf: VecDeque::new(), done: false }
    }
}

#[cfg(any(test, feature = "pg-testing"))]
pub mod testing;

#[cfg(test)]
mod tests;
