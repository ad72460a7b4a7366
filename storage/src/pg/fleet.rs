//! Several nodes on one database: each tenant is owned by one node at a time through a lease.
//!
//! Why leases and not a lock per node: a node's actors keep a tenant's limits, counters and work in
//! memory, so exactly one node may act for a tenant; the others forward to it. A lease row
//! (`pigeon.leases`: tenant, node, the node's URL, an epoch, an expiry) says who. Times are the
//! database's (`clock_timestamp()`), never a node's, so a node whose clock is off cannot steal a
//! live lease. The owner renews all its leases in one statement every third of the lease; a node
//! that stops gracefully lets them expire at once.
//!
//! **Fencing.** Each group commit first locks (`FOR SHARE`) the lease rows of every tenant whose
//! writes it carries and checks they are still this node's, with the epoch it took, and unexpired.
//! If one is not, nothing is committed and the store fails like a failed commit: the node answers
//! 503 and restarts itself in place (as Orleans' silos do when declared dead), so no actor of a
//! tenant another node took keeps acting. A takeover's `UPDATE` waits behind a commit holding the
//! row, so what a node committed before it lost the lease is what the next owner reads.
//!
//! Node ids are per process: a restarted node is a new node, owning nothing until it is asked.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use deadpool_postgres::Pool;
use deadpool_postgres::Transaction;
use ulid::Ulid;

use super::db_err;
use crate::StoreError;

mod home;
use home::Home;

/// What a node of a fleet says of itself to the others.
#[derive(Debug, Clone)]
pub struct FleetConfig {
    /// The URL other nodes forward this node's tenants' requests to.
    pub advertise_url: String,
    /// How long a lease lasts without renewal: the time a dead node's tenants wait.
    pub lease: Duration,
    /// The binary's version, shown in the fleet's listing.
    pub version: String,
    /// The node's own directory: a node started there again (after `kill -9`, or restarting
    /// itself) takes the leases of the node that ran there before at once, instead of waiting
    /// for them to expire (`pg/fleet/home.rs`).
    pub home: Option<std::path::PathBuf>,
}

/// Who owns a tenant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// This node (always, for a node on its own).
    Me,
    /// Another node whose lease is live: forward to `url`.
    Node {
        /// The node's id.
        id: String,
        /// Its advertised URL.
        url: String,
    },
    /// Nobody (never owned, or the lease expired): the first node that needs it takes it.
    Nobody,
}

/// The answer of [`Fleet::acquire`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Acquired {
    /// Taken now; `previous` is the node that had it before (whose recovery mark the new owner
    /// scans from), `None` for a tenant never owned.
    Taken {
        /// The previous owner's id.
        previous: Option<String>,
    },
    /// This node already held it (always, for a node on its own).
    Held,
    /// Another node holds a live lease.
    Elsewhere {
        /// The node's id.
        id: String,
        /// Its advertised URL.
        url: String,
    },
}

/// A live node of a fleet, for `GET /admin/v1/fleet`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeInfo {
    /// The node's id (a ULID, new each time a node starts).
    pub id: String,
    /// Its advertised URL.
    pub url: String,
    /// Its version.
    pub version: String,
    /// Tenants whose live lease it holds.
    pub tenants: i64,
    /// When it last renewed its leases (the database's clock).
    pub renewed_at: chrono::DateTime<chrono::Utc>,
    /// When it started.
    pub started_at: chrono::DateTime<chrono::Utc>,
}

/// This node's membership: its id, secret, and the leases it holds.
pub struct Leases {
    id: String,
    /// The node that ran in this node's directory before: dead, so its leases are free.
    predecessor: Option<String>,
    /// Holds `<home>/fleet-node` locked while the node lives (until it lets its leases go).
    home: Mutex<Option<Home>>,
    config: FleetConfig,
    secret: Vec<u8>,
    /// Tenants this node holds, with the epoch it took each at.
    pub(super) held: RwLock<HashMap<[u8; 16], i64>>,
    /// Tenants taken whose rebuild (the previous node's work and counters read back) is not done:
    /// held for fencing, but not yet this node's to answer for ([`Leases::holds`]).
    rebuilding: Mutex<std::collections::HashSet<[u8; 16]>>,
    /// Until when the leases are surely live (the last renewal's start plus the lease, less a
    /// margin): past it the node acts for no tenant until a renewal succeeds.
    valid_until: Mutex<Instant>,
    /// Acquisitions and renewals one at a time, so a renewal never misses a lease just taken.
    turn: tokio::sync::Mutex<()>,
    /// A lease was lost (said once).
    lost: std::sync::atomic::AtomicBool,
}

/// The share of a lease kept back from the node's own view of it, for the renewal's round trip
/// and a little clock drift between the node and the database.
fn margin(lease: Duration) -> Duration {
    lease / 5
}

impl Leases {
    /// Joins the fleet: registers this node and reads (or, the first node, makes) the fleet's
    /// secret, with which nodes authenticate forwarded requests.
    pub(super) async fn join(pool: &Pool, config: FleetConfig) -> Result<Self, StoreError> {
        let home = config.home.as_deref().map(Home::claim).transpose()?;
        let c = pool.get().await.map_err(db_err)?;
        let random: Vec<u8> = c
            .query_one("SELECT decode(replace(gen_random_uuid()::text, '-', ''), 'hex')", &[])
            .await
            .map_err(db_err)?
            .get(0);
        let random = random.iter().fold(0u128, |a, b| a << 8 | u128::from(*b));
        let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let id = Ulid::from_parts(ms.as_millis() as u64, random).to_string();
        // 32 bytes of the database's strong random (`gen_random_uuid` draws from
        // `pg_strong_random`), made once by whichever node comes first.
        c.execute(
            "INSERT INTO pigeon.fleet (id, secret) VALUES (true, decode(replace(gen_random_uuid()::text || \
             gen_random_uuid()::text, '-', ''), 'hex')) ON CONFLICT (id) DO NOTHING",
            &[],
        )
        .await
        .map_err(db_err)?;
        let secret: Vec<u8> =
            c.query_one("SELECT secret FROM pigeon.fleet", &[]).await.map_err(db_err)?.get(0);
        c.execute(
            "INSERT INTO pigeon.nodes (id, url, version) VALUES ($1, $2, $3)",
            &[&id, &config.advertise_url, &config.version],
        )
        .await
        .map_err(db_err)?;
        if let Some(h) = &home {
            h.name(&id)?;
        }
        let valid_until = Mutex::new(Instant::now() + config.lease - margin(config.lease));
        Ok(Self {
            predecessor: home.as_ref().and_then(|h| h.predecessor.clone()),
            home: Mutex::new(home),
            id,
            config,
            secret,
            held: RwLock::default(),
            rebuilding: Mutex::default(),
            valid_until,
            turn: tokio::sync::Mutex::new(()),
            lost: Default::default(),
        })
    }

    /// This node's id.
    pub fn node_id(&self) -> &str {
        &self.id
    }

    /// This node's advertised URL.
    pub fn advertise_url(&self) -> &str {
        &self.config.advertise_url
    }

    /// The lease's length.
    pub fn lease(&self) -> Duration {
        self.config.lease
    }

    /// The fleet's shared secret (node-to-node authentication).
    pub fn secret(&self) -> &[u8] {
        &self.secret
    }

    /// Whether this node holds the tenant's lease and knows it to be live.
    pub fn holds(&self, tenant: Ulid) -> bool {
        let t = tenant.to_bytes();
        self.held.read().unwrap().contains_key(&t)
            && Instant::now() < *self.valid_until.lock().unwrap()
            && !self.rebuilding.lock().unwrap().contains(&t)
    }

    /// Whether the tenant's lease was taken by this node (live or not).
    pub(super) fn taken(&self, tenant: &[u8]) -> bool {
        <[u8; 16]>::try_from(tenant).is_ok_and(|t| self.held.read().unwrap().contains_key(&t))
    }

    /// Whether this node took the tenant's lease, live or not: a tenant it took whose lease it
    /// cannot vouch for now means renewals are failing (the database does not answer).
    pub fn took(&self, tenant: Ulid) -> bool {
        self.taken(&tenant.to_bytes())
    }

    /// The tenant taken last is rebuilt: from now on this node answers for it.
    pub(crate) fn rebuilt(&self, tenant: Ulid) {
        self.rebuilding.lock().unwrap().remove(&tenant.to_bytes());
    }

    /// How many tenants this node holds.
    pub fn held(&self) -> usize {
        self.held.read().unwrap().len()
    }

    /// Who owns `tenant` by the database (the caller asked [`Leases::holds`] first).
    pub(super) async fn owner(&self, pool: &Pool, tenant: Ulid) -> Result<Owner, StoreError> {
        let c = pool.get().await.map_err(db_err)?;
        let stmt = c
            .prepare_cached(
                "SELECT node, url FROM pigeon.leases WHERE tenant = $1 AND expires_at > clock_timestamp()",
            )
            .await
            .map_err(db_err)?;
        let row = c.query_opt(&stmt, &[&&tenant.to_bytes()[..]]).await.map_err(db_err)?;
        Ok(match row {
            Some(r) if r.get::<_, &str>(0) == self.id => Owner::Me,
            Some(r) if self.predecessor.as_deref() == Some(r.get::<_, &str>(0)) => Owner::Nobody,
            Some(r) => Owner::Node { id: r.get(0), url: r.get(1) },
            None => Owner::Nobody,
        })
    }

    /// Takes the tenant's lease unless another node holds a live one.
    pub(super) async fn acquire(&self, pool: &Pool, tenant: Ulid) -> Result<Acquired, StoreError> {
        let _turn = self.turn.lock().await;
        if self.taken(&tenant.to_bytes()) {
            return Ok(Acquired::Held);
        }
        let key = tenant.to_bytes().to_vec();
        let ms = self.config.lease.as_millis() as f64;
        let mut c = pool.get().await.map_err(db_err)?;
        let tx = c.transaction().await.map_err(db_err)?;
        let row = tx
            .query_opt(
                "SELECT node, url, epoch, expires_at > clock_timestamp() FROM pigeon.leases WHERE tenant = $1 \
                 FOR UPDATE",
                &[&key],
            )
            .await
            .map_err(db_err)?;
        let (epoch, previous) = match row {
            Some(r)
                if r.get::<_, bool>(3)
                    && r.get::<_, &str>(0) != self.id
                    && self.predecessor.as_deref() != Some(r.get::<_, &str>(0)) =>
            {
                return Ok(Acquired::Elsewhere { id: r.get(0), url: r.get(1) });
            }
            Some(r) => {
                let epoch: i64 = r.get::<_, i64>(2) + 1;
                tx.execute(
                    "UPDATE pigeon.leases SET node = $2, url = $3, epoch = $4, owes = false, \
                     expires_at = clock_timestamp() + $5 * interval '1 millisecond' WHERE tenant = $1",
                    &[&key, &self.id, &self.config.advertise_url, &epoch, &ms],
                )
                .await
                .map_err(db_err)?;
                (epoch, Some(r.get::<_, String>(0)))
            }
            None => {
                // Two nodes may insert at once: the loser's insert waits, then conflicts.
                let n = tx
                    .execute(
                        "INSERT INTO pigeon.leases (tenant, node, url, epoch, expires_at) VALUES \
                         ($1, $2, $3, 1, clock_timestamp() + $4 * interval '1 millisecond') ON CONFLICT DO NOTHING",
                        &[&key, &self.id, &self.config.advertise_url, &ms],
                    )
                    .await
                    .map_err(db_err)?;
                if n == 0 {
                    return Err(StoreError::Database("another node took the tenant at the same time".into()));
                }
                (1, None)
            }
        };
        tx.commit().await.map_err(db_err)?;
        self.rebuilding.lock().unwrap().insert(tenant.to_bytes());
        self.held.write().unwrap().insert(tenant.to_bytes(), epoch);
        Ok(Acquired::Taken { previous })
    }

    /// Renews every lease this node holds; an error names a lease that is gone (another node
    /// took it, or it expired unrenewed), after which the node must stop acting.
    pub(super) async fn renew(&self, pool: &Pool) -> Result<(), StoreError> {
        let _turn = self.turn.lock().await;
        let started = Instant::now();
        let ms = self.config.lease.as_millis() as f64;
        let c = pool.get().await.map_err(db_err)?;
        let rows = c
            .query(
                "UPDATE pigeon.leases SET expires_at = clock_timestamp() + $2 * interval '1 millisecond' \
                 WHERE node = $1 AND expires_at > clock_timestamp() RETURNING tenant, epoch",
                &[&self.id, &ms],
            )
            .await
            .map_err(db_err)?;
        c.execute("UPDATE pigeon.nodes SET renewed_at = clock_timestamp() WHERE id = $1", &[&self.id])
            .await
            .map_err(db_err)?;
        let live: HashSet<([u8; 16], i64)> = rows
            .iter()
            .filter_map(|r| Some((<[u8; 16]>::try_from(r.get::<_, &[u8]>(0)).ok()?, r.get::<_, i64>(1))))
            .collect();
        let held = self.held.read().unwrap();
        if let Some((t, _)) = held.iter().find(|(t, e)| !live.contains(&(**t, **e))) {
            return Err(StoreError::Database(format!(
                "the lease of tenant {} is no longer this node's",
                Ulid::from_bytes(*t)
            )));
        }
        drop(held);
        *self.valid_until.lock().unwrap() = started + self.config.lease - margin(self.config.lease);
        Ok(())
    }

    /// Lets every lease of this node expire now, and says the node stopped: at a graceful stop,
    /// after the last commit, so the next owner need not wait for the lease. The tenants in
    /// `owing` still owe work (on disk by now): the other nodes take them (`orphans`).
    pub(super) async fn release(&self, pool: &Pool, owing: Vec<Vec<u8>>) -> Result<(), StoreError> {
        let _turn = self.turn.lock().await;
        let c = pool.get().await.map_err(db_err)?;
        c.execute(
            "UPDATE pigeon.leases SET expires_at = clock_timestamp() - interval '1 millisecond', \
             owes = (tenant = ANY($2::bytea[])) WHERE node = $1",
            &[&self.id, &owing],
        )
        .await
        .map_err(db_err)?;
        c.execute("UPDATE pigeon.nodes SET stopped_at = clock_timestamp() WHERE id = $1", &[&self.id])
            .await
            .map_err(db_err)?;
        self.held.write().unwrap().clear();
        // Nothing is left for a successor to take over: the next node here may start now.
        self.home.lock().unwrap().take();
        Ok(())
    }

    /// Tenants that need an owner and have none: those of nodes that died (their leases ran out,
    /// or they ran in this node's directory before), and those a node that stopped gracefully
    /// left owing work (`owes`). With `work_lists`, also every tenant owing work on disk that no
    /// node holds (a scan of the work lists, so only once, at start: it finds work a database
    /// kept from before it had leases).
    pub(super) async fn orphans(
        &self,
        pool: &Pool,
        limit: i64,
        work_lists: bool,
    ) -> Result<Vec<Ulid>, StoreError> {
        let c = pool.get().await.map_err(db_err)?;
        let predecessor = self.predecessor.clone().unwrap_or_default();
        let leases =
            "SELECT l.tenant FROM pigeon.leases l WHERE (l.expires_at < clock_timestamp() OR l.node = $1) \
             AND l.node <> $2 AND (l.owes OR NOT EXISTS \
             (SELECT 1 FROM pigeon.nodes n WHERE n.id = l.node AND n.stopped_at IS NOT NULL))";
        let sql = if work_lists {
            format!(
                "{leases} UNION SELECT w.t FROM (SELECT substring(v FROM 1 FOR 16) AS t FROM pigeon.pending \
                 UNION SELECT substring(v FROM 1 FOR 16) FROM pigeon.due \
                 UNION SELECT substring(k FROM 9 FOR 16) FROM pigeon.schedule) w \
                 WHERE length(w.t) = 16 AND NOT EXISTS (SELECT 1 FROM pigeon.leases l WHERE l.tenant = w.t \
                 AND l.expires_at > clock_timestamp() AND l.node <> $1) LIMIT $3"
            )
        } else {
            format!("{leases} LIMIT $3")
        };
        let stmt = c.prepare_cached(&sql).await.map_err(db_err)?;
        let rows = c.query(&stmt, &[&predecessor, &self.id, &limit]).await.map_err(db_err)?;
        Ok(rows
            .iter()
            .filter_map(|r| <[u8; 16]>::try_from(r.get::<_, &[u8]>(0)).ok())
            .map(Ulid::from_bytes)
            .filter(|t| !self.took(*t))
            .collect())
    }

    /// The live nodes: renewed within three leases and not stopped.
    pub(super) async fn nodes(&self, pool: &Pool) -> Result<Vec<NodeInfo>, StoreError> {
        let c = pool.get().await.map_err(db_err)?;
        let ms = 3.0 * self.config.lease.as_millis() as f64;
        let rows = c
            .query(
                "SELECT n.id, n.url, n.version, n.renewed_at, n.started_at, \
                 (SELECT count(*) FROM pigeon.leases l WHERE l.node = n.id AND l.expires_at > clock_timestamp()) \
                 FROM pigeon.nodes n WHERE n.stopped_at IS NULL \
                 AND n.renewed_at > clock_timestamp() - $1 * interval '1 millisecond' ORDER BY n.started_at, n.id",
                &[&ms],
            )
            .await
            .map_err(db_err)?;
        Ok(rows
            .iter()
            .map(|r| NodeInfo {
                id: r.get(0),
                url: r.get(1),
                version: r.get(2),
                renewed_at: r.get::<_, std::time::SystemTime>(3).into(),
                started_at: r.get::<_, std::time::SystemTime>(4).into(),
                tenants: r.get(5),
            })
            .collect())
    }

    /// Within a commit's transaction, before its writes: locks the lease rows of `tenants` and
    /// checks each is this node's, at the epoch it took, and unexpired.
    pub(super) async fn fence(
        &self,
        tx: &Transaction<'_>,
        tenants: &HashSet<[u8; 16]>,
    ) -> Result<(), StoreError> {
        if tenants.is_empty() {
            return Ok(());
        }
        let (keys, epochs): (Vec<Vec<u8>>, Vec<i64>) = {
            let held = self.held.read().unwrap();
            let mut keys = Vec::with_capacity(tenants.len());
            let mut epochs = Vec::with_capacity(tenants.len());
            for t in tenants {
                let Some(e) = held.get(t) else {
                    return Err(StoreError::Database(format!(
                        "a write for tenant {}, whose lease this node does not hold",
                        Ulid::from_bytes(*t)
                    )));
                };
                keys.push(t.to_vec());
                epochs.push(*e);
            }
            (keys, epochs)
        };
        let stmt = tx
            .prepare_cached(
                "SELECT l.tenant FROM pigeon.leases l JOIN UNNEST($2::bytea[], $3::bigint[]) AS t(tenant, epoch) \
                 ON l.tenant = t.tenant AND l.epoch = t.epoch WHERE l.node = $1 \
                 AND l.expires_at > clock_timestamp() FOR SHARE OF l",
            )
            .await
            .map_err(db_err)?;
        let rows = tx.query(&stmt, &[&self.id, &keys, &epochs]).await.map_err(db_err)?;
        if rows.len() != keys.len() {
            return Err(StoreError::Database(format!(
                "{} of {} tenants' leases are no longer this node's: nothing committed",
                keys.len() - rows.len(),
                keys.len()
            )));
        }
        Ok(())
    }

    /// Says once that a lease was lost.
    pub(super) fn said_lost(&self) -> bool {
        self.lost.swap(true, std::sync::atomic::Ordering::Relaxed)
    }
}

/// The tenant a write belongs to, for fencing: the key's first 16 bytes in the tenant-owned
/// trees; in the global indexes and work lists the owner their value names (a delete there names
/// none and is not fenced: it only ever settles work whose record the same commit fences).
pub(super) fn tenant_of<'a>(table: &str, key: &'a [u8], value: Option<&'a [u8]>) -> Option<&'a [u8]> {
    match table {
        "meta" | "sessions" => None,
        "key_hashes" | "key_ids" | "phone_ids" | "phone_tokens" | "pending" | "due" | "media_ids" => {
            value?.get(..16)
        }
        "schedule" => key.get(8..24),
        // A SHA-256 in hex, then the holder's tenant.
        "media_holders" => key.get(64..80),
        _ => key.get(..16),
    }
}

/// Whether a table's keys lead with their tenant (its cache may hold only held tenants' keys).
pub(super) fn tenant_keyed(table: &str) -> bool {
    !matches!(
        table,
        "meta"
            | "sessions"
            | "key_hashes"
            | "key_ids"
            | "phone_ids"
            | "phone_tokens"
            | "pending"
            | "due"
            | "schedule"
            | "media_ids"
            | "media_holders"
    )
}

/// Renews the leases every third of a lease until the store closes; a lost lease, or leases that
/// could not be renewed before they expired, end this node's writing (`on_lost`).
pub(super) async fn renew_loop(
    fleet: Arc<Leases>,
    pool: Pool,
    closed: tokio::sync::watch::Receiver<bool>,
    on_lost: impl Fn(&StoreError) + Send + 'static,
) {
    let mut closed = closed;
    let every = fleet.config.lease / 3;
    loop {
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = closed.changed() => return,
        }
        if *closed.borrow() {
            return;
        }
        match fleet.renew(&pool).await {
            Ok(()) => {}
            Err(e) if e.to_string().contains("no longer this node's") => {
                if !fleet.said_lost() {
                    tracing::error!(error = %e, "a lease was lost: this node stops writing and restarts");
                }
                on_lost(&e);
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot renew the leases; the tenants answer 503 until it can")
            }
        }
    }
}
