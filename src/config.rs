//! Settings of a running server. `main` fills them from flags and `PIGEON_*` variables; tests
//! build them directly.

use std::path::PathBuf;

/// What `Application::build` needs besides a listener and a clock.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where the sled store lives.
    pub data_dir: PathBuf,
    /// The PostgreSQL database to keep everything in instead; `None` is sled.
    pub database: Option<Database>,
    /// Operator token; `None` keeps the stored one or generates one on a fresh store.
    pub admin_token: Option<String>,
    /// Which loopback/private networks webhook URLs may reach.
    pub webhook_allow_private: pigeon_actors::webhook::PrivateNetworks,
    /// HTTP worker threads; `None` is half the cores, at least one.
    pub workers: Option<usize>,
    /// Make the demo tenant (once) and allow private webhook URLs.
    pub demo: bool,
    /// Serve `POST /bench/noop`, the load harness's baseline route.
    pub bench_routes: bool,
    /// sled's page cache, MiB.
    pub cache_mb: u64,
    /// The shortest time between two group-commit flushes while writers arrive together.
    pub min_flush_interval: std::time::Duration,
    /// How long final messages and settled webhook deliveries are kept.
    pub retention: std::time::Duration,
    /// How long a tenant's actors stay without work before they stop (passivation).
    pub actor_idle: std::time::Duration,
    /// The identity provider whose JWTs stand in for API keys (issue 13), if any.
    pub identity: Option<pigeon_actors::identity::IdentityConfig>,
    /// Where clients reach the node; an `https://` one makes the dashboard's cookie `Secure`.
    pub public_url: Option<String>,
    /// Sends in the accept path at once; more are refused 503 `OVERLOADED` (`overload.rs`).
    pub max_pending_sends: usize,
    /// The largest media upload, bytes (`PIGEON_MEDIA_MAX_BYTES`).
    pub media_max_bytes: u64,
    /// Serve HTTPS with these settings (`--tls-cert`, `--tls-key`); `None` is plain HTTP.
    pub tls: Option<std::sync::Arc<rustls::ServerConfig>>,
}

/// A PostgreSQL store.
#[derive(Clone)]
pub struct Database {
    /// `postgres://…`; it may hold a password, so it is never printed.
    pub url: String,
    /// Connections in the pool.
    pub pool: usize,
    /// How long a tenant's lease lasts without renewal (a fleet: see ARCHITECTURE "A fleet").
    pub lease: std::time::Duration,
    /// The URL other nodes forward to; `None`: `http://` and the address the node listens on.
    pub advertise_url: Option<String>,
    /// The node has the database to itself (`--single-node`): no leases, no forwarding, no
    /// fencing, and no other node may use the database beside it.
    pub single_node: bool,
}

/// Five seconds: a dead node's tenants wait at most this long for another node.
pub const DEFAULT_LEASE: std::time::Duration = std::time::Duration::from_secs(5);

impl Database {
    /// A database with the default lease, advertising the address the node listens on.
    pub fn new(url: String, pool: usize) -> Self {
        Self { url, pool, lease: DEFAULT_LEASE, advertise_url: None, single_node: false }
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("pool", &self.pool)
            .field("lease", &self.lease)
            .field("advertise_url", &self.advertise_url)
            .field("single_node", &self.single_node)
            .finish_non_exhaustive()
    }
}

impl Settings {
    /// Defaults for a data directory.
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            data_dir: data_dir.into(),
            database: None,
            admin_token: None,
            webhook_allow_private: Default::default(),
            workers: None,
            demo: false,
            bench_routes: false,
            cache_mb: pigeon_actors::storage::DEFAULT_CACHE_MB,
            min_flush_interval: pigeon_actors::storage::DEFAULT_MIN_FLUSH_INTERVAL,
            retention: pigeon_actors::DEFAULT_RETENTION,
            actor_idle: pigeon_actors::DEFAULT_ACTOR_IDLE,
            identity: None,
            public_url: None,
            max_pending_sends: crate::server::overload::DEFAULT_MAX_PENDING_SENDS,
            media_max_bytes: pigeon_actors::media::DEFAULT_MAX_BYTES,
            tls: None,
        }
    }
}
