//! The engine's side of a fleet (several nodes on one PostgreSQL database): which node acts for a
//! tenant, the credentials a request names its tenant by, and how nodes vouch for the requests
//! they forward to each other. Who holds a tenant is the store's (`pigeon_storage::fleet`), the
//! same calls for a node on its own, which holds every tenant.

use hmac::{Hmac, KeyInit, Mac};
use pigeon_storage::fleet::{NodeInfo, Owner};
use pigeon_storage::model::SessionPrincipal;
use sha2::Sha256;
use ulid::Ulid;

use super::Engine;
use crate::{credentials, EngineError};

/// Where a request for a tenant is served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// Here: this node owns the tenant, or nobody does and this node will take it.
    Local,
    /// At the owner's advertised URL.
    Forward(String),
}

/// How far a forwarded request's time may be from the receiver's clock, in seconds.
const SKEW_S: i64 = 60;

/// What a node adds to a request it forwards: its id, the time, and the MAC of both with the
/// request's method and path under the fleet's secret.
#[derive(Debug, Clone)]
pub struct NodeStamp {
    /// The forwarding node's id.
    pub node: String,
    /// Unix seconds.
    pub time: i64,
    /// Lowercase hex HMAC-SHA256.
    pub mac: String,
}

fn mac_of(secret: &[u8], node: &str, time: i64, method: &str, path: &str) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(format!("{node}\n{time}\n{method}\n{path}").as_bytes());
    mac
}

/// Tenants taken per round of [`Engine::start_adopting`].
const ADOPT_BATCH: usize = 200;

impl Engine {
    /// In a fleet, takes every so often (half a lease) the tenants that need an owner and have
    /// none: those of a node that died (so its messages, retries and held messages go on without
    /// waiting for a client to name the tenant) and those owing work whose node stopped. On its
    /// own thread, since taking a tenant reads the store; it ends with the engine.
    pub(super) fn start_adopting(&self) -> std::io::Result<()> {
        // A node on its own holds every tenant: there is nobody to adopt.
        let Some(lease) = self.inner.store.fleet().lease() else { return Ok(()) };
        let every = lease / 2;
        let weak = std::sync::Arc::downgrade(&self.inner);
        // The work lists are scanned at start, until a scan finds less than a batch.
        let mut scan_lists = true;
        // The first round runs at once: a node restarted in its directory takes the tenants of
        // the node that ran there before without waiting for a client or a round.
        std::thread::Builder::new().name("pigeon-adopt".into()).spawn(move || loop {
            {
                let Some(inner) = weak.upgrade() else { return };
                let engine = Engine { inner };
                if engine.inner.stopping.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
                engine.adopt_round(&mut scan_lists);
            }
            std::thread::sleep(every);
        })?;
        Ok(())
    }

    /// One round of the adopter: finds the tenants that need an owner and takes them.
    fn adopt_round(&self, scan_lists: &mut bool) {
        match self.inner.store.fleet().orphans(ADOPT_BATCH, *scan_lists) {
            Ok(tenants) => {
                *scan_lists &= tenants.len() >= ADOPT_BATCH;
                for t in tenants {
                    match self.tenant(t) {
                        Ok(_) => tracing::info!(tenant = %t, "took a tenant that had no node"),
                        Err(EngineError::Elsewhere(_)) | Err(EngineError::NotFound(_)) => {}
                        Err(e) => {
                            tracing::warn!(error = %e, tenant = %t, "cannot take a tenant that has no node")
                        }
                    }
                }
            }
            Err(e) => tracing::debug!(error = %e, "cannot look for tenants without a node"),
        }
    }

    /// Whether this node is one of a fleet (PostgreSQL without `--single-node`).
    pub fn in_fleet(&self) -> bool {
        self.inner.store.fleet().shared()
    }

    /// This node's id in its fleet.
    pub fn node_id(&self) -> Option<&str> {
        self.inner.store.fleet().node_id()
    }

    /// Where requests for `tenant` are served. Asks the database unless this node holds the
    /// tenant's lease.
    pub fn route(&self, tenant: Ulid) -> Result<Route, EngineError> {
        Ok(match self.inner.store.fleet().owner(tenant)? {
            Owner::Me | Owner::Nobody => Route::Local,
            Owner::Node { url, .. } => Route::Forward(url),
        })
    }

    /// The live nodes of the fleet (`GET /admin/v1/fleet`).
    pub fn nodes(&self) -> Result<Vec<NodeInfo>, EngineError> {
        Ok(self.inner.store.fleet().nodes()?)
    }

    /// The tenant a bearer token names, to route its request: an API key by its hash, an agent
    /// token by its phone, an identity provider's token by its tenant claim (verified only by
    /// the owner). `None` when it names none (the owner, or this node, refuses it then).
    pub fn tenant_of_bearer(&self, token: &str) -> Option<Ulid> {
        let store = &self.inner.store;
        if token.starts_with("svc_agent_") {
            return store.phones().by_token(&credentials::hash(token)).ok()?.map(|p| p.tenant_id);
        }
        if credentials::looks_like_api_key(token) {
            return store.keys().by_hash(&credentials::hash(token)).ok()?.map(|k| k.tenant_id);
        }
        let identity = self.inner.identity.as_ref()?;
        identity.unverified_tenant(token)
    }

    /// The tenant a dashboard session acts for (`None`: the operator's, or no session).
    pub fn tenant_of_session(&self, id: &str) -> Option<Ulid> {
        match self.inner.store.sessions().get(&credentials::hash(id)).ok()??.principal {
            SessionPrincipal::Key { tenant_id, .. } | SessionPrincipal::Subject { tenant_id, .. } => {
                Some(tenant_id)
            }
            SessionPrincipal::Operator { .. } => None,
        }
    }

    /// The tenant of an API key, by its id (the operator's key calls).
    pub fn tenant_of_key_id(&self, key: Ulid) -> Option<Ulid> {
        self.inner.store.keys().owner(key).ok()?
    }

    /// The tenant of a phone, by its id (the operator's phone calls).
    pub fn tenant_of_phone(&self, phone: Ulid) -> Option<Ulid> {
        self.inner.store.phones().owner(phone).ok()?
    }

    /// Stamps a request this node forwards (`None` outside a fleet).
    pub fn stamp(&self, method: &str, path: &str) -> Option<NodeStamp> {
        let fleet = self.inner.store.fleet();
        let (secret, node) = (fleet.secret()?, fleet.node_id()?);
        let time = chrono::Utc::now().timestamp();
        let mac = mac_of(secret, node, time, method, path);
        Some(NodeStamp { node: node.to_owned(), time, mac: hex::encode(mac.finalize().into_bytes()) })
    }

    /// Whether a forwarded request's stamp was made by a node of this fleet, recently
    /// (constant-time comparison).
    pub fn verify_stamp(&self, stamp: &NodeStamp, method: &str, path: &str) -> bool {
        let Some(secret) = self.inner.store.fleet().secret() else { return false };
        let Ok(given) = hex::decode(&stamp.mac) else { return false };
        if (chrono::Utc::now().timestamp() - stamp.time).abs() > SKEW_S {
            return false;
        }
        mac_of(secret, &stamp.node, stamp.time, method, path).verify_slice(&given).is_ok()
    }
}
