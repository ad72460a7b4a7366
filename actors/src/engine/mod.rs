//! The engine: the store, the clock, and the registry of running tenant actors; the entry point
//! of the HTTP layer. Callers get handles ([`TenantHandle`], [`AgentHandle`]), never raw actor
//! addresses; tenant actors start on first use and are spread over a few arbiters (threads) so one
//! busy tenant cannot stall the rest. Start-up recovery and tenant-scoped reads have files of
//! their own.

mod events;
mod fleet;
mod guard;
mod handles;
mod media;
mod reads;
mod recover;
mod sessions;
mod start;
mod threads;
mod views;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use actix::prelude::*;
use pigeon_storage::fleet::Acquired;
use pigeon_storage::model::{
    Environment, MessageRecord, PhoneDriver, Plan, QuietHours, Scopes, SimSettings, TenantRecord,
    TenantStatus,
};
use pigeon_storage::Store;
use ulid::Ulid;

use crate::clock::SharedClock;
use crate::credentials;
use crate::domain::PhoneNumber;
use crate::error::Missing;
use crate::registry::{Arbiters, PhoneEntry, PhoneRegistry, Shared, WebhookRegistry};
use crate::retention::Sweeper;
use crate::scheduler::{self, Scheduler};
use crate::tenant::{
    self, Admitted, NewKey, QuietHoursPatch, RateInfo, SendRequest, TenantPatch, TenantRegistry,
};
use crate::EngineError;
use threads::background_priority;
pub use threads::name_thread;

pub use events::{parse_types, EventBatch, EventQuery};
pub use fleet::{NodeStamp, Route};
pub use handles::{AgentHandle, TenantHandle};
pub use reads::{TenantReads, MAX_LIST_READ};
pub use sessions::{Session, SESSION_IDLE, SIGN_IN_FORM_TTL};

/// Work waiting in the engine's actors.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Depths {
    /// Messages in phone queues (including ones still being read back after a restart).
    pub queued: usize,
    /// Messages a phone is sending: leased to an agent, or in a sim's delay.
    pub in_flight: usize,
    /// Messages held for quiet hours or `send_at`.
    pub held: usize,
    /// Webhook deliveries not yet succeeded or given up.
    pub webhook_deliveries: usize,
    /// Phones of running tenants that are online (a polling agent keeps its tenant running).
    pub phones_online: usize,
}

/// Tuning of the engine.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Threads that run tenant actors (the accept path), and as many again for phones, webhooks
    /// and campaigns.
    pub arbiters: usize,
    /// Which loopback and private networks webhooks may reach.
    pub webhook_allow_private: crate::webhook::PrivateNetworks,
    /// How long final messages and settled deliveries are kept (DESIGN "Retention").
    pub retention: std::time::Duration,
    /// The identity provider whose JWTs stand in for API keys, if any.
    pub identity: Option<crate::identity::IdentityConfig>,
    /// How long a tenant's actors stay without work before they stop (see `tenant/rest.rs`).
    pub actor_idle: std::time::Duration,
    /// What media links start with: `PIGEON_PUBLIC_URL`, else the listening address.
    pub media_base_url: String,
}

/// Ten minutes: how long an idle tenant's actors live when the operator sets nothing.
pub const DEFAULT_ACTOR_IDLE: std::time::Duration = std::time::Duration::from_secs(600);

/// Thirty days: the retention when the operator sets none.
pub const DEFAULT_RETENTION: std::time::Duration = std::time::Duration::from_secs(30 * 86_400);

impl Default for EngineConfig {
    fn default() -> Self {
        Self {
            arbiters: std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8),
            webhook_allow_private: Default::default(),
            retention: DEFAULT_RETENTION,
            identity: None,
            actor_idle: DEFAULT_ACTOR_IDLE,
            media_base_url: "http://127.0.0.1".into(),
        }
    }
}

/// A caller whose tenant is known, not yet admitted: an API key found by its hash, or a verified
/// identity-provider token. What the send path validates with.
#[derive(Clone)]
pub struct LocatedKey {
    /// The tenant the caller acts for.
    pub tenant_id: Ulid,
    who: tenant::Credential,
    /// An identity provider's token: its `exp` (Unix seconds).
    expires: Option<i64>,
}

/// The fewest characters an operator token may have: a generated one has 42, and a short one
/// set by hand (`PIGEON_ADMIN_TOKEN=a`) would open the operator API to a guesser.
pub const MIN_ADMIN_TOKEN: usize = 24;

/// The operator token to configure: `None` for none, or an empty or blank one (an unset compose
/// variable); an error saying why for one shorter than [`MIN_ADMIN_TOKEN`].
pub fn check_admin_token(configured: Option<&str>) -> Result<Option<&str>, String> {
    match configured.map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) if t.chars().count() < MIN_ADMIN_TOKEN => Err(format!(
            "an operator token needs at least {MIN_ADMIN_TOKEN} characters and PIGEON_ADMIN_TOKEN has {}; \
             set a longer one, or leave it unset to have one generated",
            t.chars().count()
        )),
        Some(t) => Ok(Some(t)),
    }
}

/// A tenant just made, with its first two keys.
#[derive(Debug, Clone)]
pub struct CreatedTenant {
    /// The record.
    pub tenant: TenantRecord,
    /// `svc_live_` key.
    pub live: NewKey,
    /// `svc_test_` key.
    pub test: NewKey,
}

/// Numbers of the demo tenant's sim phones.
pub const DEMO_PHONES: [&str; 2] = ["+15550100001", "+15550100002"];

/// What `serve --demo` found or made.
#[derive(Debug, Clone)]
pub enum Demo {
    /// Made now: the keys can be shown.
    Created {
        /// The tenant and its keys.
        tenant: Box<CreatedTenant>,
        /// Its sim phones' numbers.
        phones: Vec<String>,
    },
    /// Made on an earlier start; its keys were shown then.
    Existing(Ulid),
}

/// Usage figures shown to the operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Live calls counted this UTC month.
    pub api_calls_this_month: u64,
    /// First-time recipients today (UTC).
    pub new_contacts_today: u64,
}

/// The engine handle; cheap to clone.
#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    clock: SharedClock,
    /// Where tenant actors and the scheduler run.
    front: Arbiters,
    arbiters: Mutex<Vec<Arbiter>>,
    /// The retention sweeper's own thread (see [`Engine::start`]).
    sweeper: ArbiterHandle,
    next: AtomicUsize,
    /// The running tenant actors.
    tenants: TenantRegistry,
    shared: Arc<Shared>,
    admin_hash: RwLock<Option<String>>,
    identity: Option<crate::identity::Identity>,
    /// Failed sign-ins by client address (`guard.rs`).
    sign_ins: guard::SignInGuard,
    /// Set by [`Engine::shutdown`]: a fleet's adopter takes no more tenants.
    stopping: std::sync::atomic::AtomicBool,
}

/// Prefix of the generated operator token.
const ADMIN_PREFIX: &str = "svc_admin_";

impl Engine {
    /// Starts the engine's arbiters, on the clock the store was opened with (record ids carry its
    /// time, so the engine reads no other). Must run inside an actix `System`.
    pub fn start(store: Store, config: EngineConfig) -> Result<Self, EngineError> {
        let clock: SharedClock = store.clock().clone();
        // awc's TLS client needs a process-wide crypto provider; a second install is harmless.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let n = config.arbiters.max(1);
        // Front threads, work threads, and one for the retention sweeper. The sweeper deletes the
        // oldest records, whose pages are the coldest: once the OS has dropped them from its
        // cache, each delete waits for a disk read, and on a shared work thread every phone and
        // webhook behind it waited too (issue 26: end-to-end p99 rose from ~10 ms to 50–300 ms
        // when retention began).
        let arbiters: Vec<Arbiter> = (0..2 * n + 1).map(|_| Arbiter::new()).collect();
        let handles: Vec<ArbiterHandle> = arbiters.iter().map(Arbiter::handle).collect();
        let (front, rest) = handles.split_at(n);
        let (work, sweeper) = rest.split_at(n);
        for h in front {
            h.spawn_fn(|| name_thread(c"pigeon-tenants"));
        }
        for h in work {
            h.spawn_fn(|| name_thread(c"pigeon-work"));
        }
        sweeper[0].spawn_fn(|| name_thread(c"pigeon-sweeper"));
        for h in rest {
            h.spawn_fn(background_priority);
        }
        let links = Arc::new(media::links(&store, &config.media_base_url)?);
        let shared = Arc::new(Shared {
            links,
            arbiters: Arbiters(work.into()),
            phones: PhoneRegistry::default(),
            webhooks: WebhookRegistry::default(),
            allow_private: config.webhook_allow_private,
            outcomes: Arc::default(),
            actor_idle: config.actor_idle,
            passivations: Arc::default(),
            scheduler: Arc::default(),
        });
        let admin_hash = store.meta().admin_token_hash()?;
        let identity =
            config.identity.map(crate::identity::Identity::new).transpose().map_err(EngineError::Config)?;
        let engine = Self {
            inner: Arc::new(Inner {
                store,
                clock,
                front: Arbiters(front.into()),
                arbiters: Mutex::new(arbiters),
                sweeper: sweeper[0].clone(),
                next: AtomicUsize::new(0),
                tenants: TenantRegistry::default(),
                shared,
                admin_hash: RwLock::new(admin_hash),
                identity,
                sign_ins: Default::default(),
                stopping: Default::default(),
            }),
        };
        let me = engine.clone();
        let release: scheduler::Release = Box::new(move |tenant, id| match me.tenant(tenant) {
            Ok(h) => h.release(id),
            Err(e) => tracing::error!(error = %e, message_id = %id, "cannot release a held message"),
        });
        let (store, clock) = (engine.inner.store.clone(), engine.inner.clock.clone());
        let sched = Scheduler::start_in_arbiter(&engine.inner.front.0[0], move |_| {
            Scheduler::new(store, clock, release)
        });
        let _ = engine.inner.shared.scheduler.set(sched);
        let (store, clock) = (engine.inner.store.clone(), engine.inner.clock.clone());
        Sweeper::start_in_arbiter(&engine.inner.sweeper, move |_| {
            Sweeper::new(store, clock, config.retention)
        });
        engine
            .start_adopting()
            .map_err(|e| EngineError::Config(format!("cannot start the fleet's adopter: {e}")))?;
        Ok(engine)
    }

    /// True while the store answers reads (`/readyz`).
    pub fn is_healthy(&self) -> bool {
        self.inner.store.is_healthy()
    }

    /// Whether the store can write (`/readyz`, and the server's restart once a full disk has
    /// room again).
    pub fn store_writable(&self) -> crate::storage::Writable {
        self.inner.store.writable()
    }

    /// A handle on the same answer that keeps neither the engine nor the store alive.
    pub fn store_health(&self) -> crate::storage::StoreHealth {
        self.inner.store.health()
    }

    /// Writes made through the store since it opened (`/metrics`).
    pub fn store_writes(&self) -> u64 {
        self.inner.store.writes()
    }

    /// A copy of the store taken while it serves, for `GET /admin/v1/backup` (blocks while it
    /// copies; see `pigeon_storage::backup`).
    pub fn backup(&self) -> Result<pigeon_storage::backup::Snapshot, pigeon_storage::StoreError> {
        self.inner.store.backup()
    }

    /// Bytes the store takes on disk (`/metrics`).
    pub fn store_size(&self) -> u64 {
        self.inner.store.size_on_disk()
    }

    /// Cold pages sled's writers left to its flusher (`/metrics`).
    pub fn store_cold_pages(&self) -> pigeon_storage::ColdPages {
        self.inner.store.cold_pages()
    }

    /// How sled's log segments stand (`/metrics`).
    pub fn store_segments(&self) -> pigeon_storage::Segments {
        self.inner.store.segments()
    }

    /// How well the group commit batches, and how long the disk kept writers waiting (`/metrics`).
    pub fn commit_stats(&self) -> pigeon_storage::CommitStats {
        self.inner.store.commit_stats()
    }

    /// The clock.
    pub fn clock(&self) -> &SharedClock {
        &self.inner.clock
    }

    /// Makes sure an operator token exists. A configured token replaces the stored one; with none
    /// configured and none stored, a token is generated and returned so it can be shown once.
    /// An empty or blank `configured` counts as none; one shorter than [`MIN_ADMIN_TOKEN`] is
    /// refused before anything is written, so the stored token stays as it was.
    pub async fn ensure_admin_token(&self, configured: Option<&str>) -> Result<Option<String>, EngineError> {
        let configured = check_admin_token(configured).map_err(EngineError::Config)?;
        let (hash, generated) = match configured {
            Some(t) => (credentials::hash(t), None),
            None => match self.inner.admin_hash.read().unwrap().clone() {
                Some(_) => return Ok(None),
                None => {
                    let t = credentials::generate(ADMIN_PREFIX);
                    (credentials::hash(&t), Some(t))
                }
            },
        };
        if self.inner.admin_hash.read().unwrap().as_deref() != Some(&hash) {
            self.inner.store.meta().set_admin_token_hash(&hash)?;
            self.inner.store.commit().await?;
            *self.inner.admin_hash.write().unwrap() = Some(hash);
        }
        Ok(generated)
    }

    /// True if `token` is the operator token (never for an empty one).
    pub fn is_admin(&self, token: &str) -> bool {
        if token.is_empty() {
            return false;
        }
        let hash = credentials::hash(token);
        self.inner.admin_hash.read().unwrap().as_deref().is_some_and(|h| credentials::hashes_match(h, &hash))
    }

    /// Authenticates an API key and charges the call: the key's rate, then the tenant's month.
    /// The rate state comes back also on refusal, for the headers of a 429.
    pub async fn authenticate(&self, key: &str) -> (Option<RateInfo>, Result<Admitted, EngineError>) {
        let key = match self.locate(key).await {
            Ok(k) => k,
            Err(e) => return (None, Err(e)),
        };
        let addr = match self.located_owner(&key) {
            Ok(a) => a,
            Err(e) => return (None, Err(e)),
        };
        match addr.ask(tenant::Admit { who: key.who }).await {
            Ok(r) => r,
            Err(e) => (None, Err(e)),
        }
    }

    /// The tenant a bearer token acts for: an API key ([`Engine::locate_key`]) or, when an
    /// identity provider is configured, a JWT it signed (verified here, the tenant claim naming
    /// an existing tenant). A JWT with no provider configured is an unknown key.
    pub async fn locate(&self, token: &str) -> Result<LocatedKey, EngineError> {
        let Some(identity) = self.inner.identity.as_ref().filter(|_| crate::identity::looks_like_jwt(token))
        else {
            return self.locate_key(token);
        };
        let p = identity.verify(token, self.inner.clock.now()).await?;
        match self.addr(p.tenant_id) {
            Ok(_) => Ok(LocatedKey {
                tenant_id: p.tenant_id,
                who: tenant::Credential::Subject(p.sub),
                expires: Some(p.exp),
            }),
            Err(EngineError::NotFound(_)) => Err(EngineError::InvalidToken("unknown tenant")),
            Err(e) => Err(e),
        }
    }

    /// [`Engine::locate`] when it needs no identity provider (an API key, or a JWT with none
    /// configured): answered at once, without waiting. `None` for a token only the provider can
    /// vouch for.
    pub fn locate_now(&self, token: &str) -> Option<Result<LocatedKey, EngineError>> {
        let provider = self.inner.identity.is_some() && crate::identity::looks_like_jwt(token);
        (!provider).then(|| self.locate_key(token))
    }

    /// Where an API key may belong, found without the tenant's actor (which still compares the
    /// whole hash: [`Engine::send_with_key`]).
    pub fn locate_key(&self, key: &str) -> Result<LocatedKey, EngineError> {
        if !credentials::looks_like_api_key(key) {
            return Err(EngineError::InvalidApiKey);
        }
        let hash = credentials::hash(key);
        let pigeon_storage::KeyLocation { tenant_id, key_id } =
            self.inner.store.keys().by_hash(&hash)?.ok_or(EngineError::InvalidApiKey)?;
        Ok(LocatedKey { tenant_id, who: tenant::Credential::Key { key_id, hash }, expires: None })
    }

    /// The actor of a located key's tenant; a tenant gone since the lookup makes the key invalid.
    fn located_owner(&self, key: &LocatedKey) -> Result<TenantHandle, EngineError> {
        match self.tenant(key.tenant_id) {
            Err(EngineError::NotFound(_)) => Err(EngineError::InvalidApiKey),
            found => found,
        }
    }

    /// `POST /v1/messages` in one turn of the tenant's actor: admission (as
    /// [`Engine::authenticate`]), then the send. With `req` `None` (a body the edge found
    /// invalid) only the admission runs, and `Ok(None)` says it passed.
    pub async fn send_with_key(
        &self,
        key: LocatedKey,
        req: Option<SendRequest>,
    ) -> (Option<RateInfo>, Result<Option<MessageRecord>, EngineError>) {
        let addr = match self.located_owner(&key) {
            Ok(a) => a,
            Err(e) => return (None, Err(e)),
        };
        match addr.ask(tenant::AdmitSend { who: key.who, req, admitted: false }).await {
            Ok(r) => r,
            Err(e) => (None, Err(e)),
        }
    }

    /// Creates a tenant with a live and a test key, on disk before it returns.
    pub async fn create_tenant(&self, name: String, plan: Plan) -> Result<CreatedTenant, EngineError> {
        let now = self.inner.clock.now();
        let tenant = TenantRecord {
            id: self.inner.store.new_id(),
            name,
            plan,
            status: TenantStatus::Active,
            subscription_active: false,
            trial_ends_at: now + chrono::Days::new(14),
            new_contact_daily_limit: None,
            monthly_call_limit: None,
            quiet_hours: QuietHours::default(),
            replies: Default::default(),
            media_bytes_limit: None,
            created_at: now,
        };
        let new = |env: Environment, name: &str| {
            let (record, key) = tenant::new_key(
                self.inner.store.new_id(),
                tenant.id,
                name.into(),
                env,
                None,
                Scopes::ALL,
                now,
            );
            let effective_rate_limit = record.effective_rate_limit(plan);
            NewKey { record, key, effective_rate_limit }
        };
        let live = new(Environment::Live, "default live key");
        let test = new(Environment::Test, "default test key");
        // In a fleet, the node that makes a tenant owns it first (a new id: no one else can).
        if let Acquired::Elsewhere { url, .. } = self.inner.store.fleet().acquire(tenant.id)? {
            return Err(EngineError::Elsewhere(url));
        }
        self.inner.store.create_tenant(&tenant, &[live.record.clone(), test.record.clone()])?;
        self.inner.store.commit().await?;
        Ok(CreatedTenant { tenant, live, test })
    }

    /// Makes the demo tenant (scale plan, two sim phones) unless an earlier start made it.
    pub async fn ensure_demo(&self) -> Result<Demo, EngineError> {
        if let Some(id) = self.inner.store.meta().demo_tenant()? {
            return Ok(Demo::Existing(id));
        }
        let created = self.create_tenant("demo".into(), Plan::Scale).await?;
        let handle = self.tenant(created.tenant.id)?;
        // The demo's curl line must deliver at any hour of the day.
        let quiet_off = QuietHoursPatch { enabled: Some(false), ..QuietHoursPatch::default() };
        handle.patch(TenantPatch { quiet_hours: Some(quiet_off), ..TenantPatch::default() }).await?;
        let mut phones = Vec::new();
        for number in DEMO_PHONES {
            let n = PhoneNumber::parse(number).expect("valid demo number");
            let sim = SimSettings { latency_ms: 200, ..SimSettings::default() };
            handle.add_phone(n, 10_000, PhoneDriver::Sim, sim).await?;
            phones.push(number.to_string());
        }
        self.inner.store.meta().set_demo_tenant(created.tenant.id)?;
        self.inner.store.commit().await?;
        Ok(Demo::Created { tenant: Box::new(created), phones })
    }

    /// The handle of a tenant's actor, starting it if needed; `NotFound` for unknown tenants.
    pub fn tenant(&self, id: Ulid) -> Result<TenantHandle, EngineError> {
        Ok(TenantHandle { engine: self.clone(), id, addr: self.addr(id)? })
    }

    /// The tenant owning a key, for operator calls that name only the key.
    pub fn key_owner(&self, key_id: Ulid) -> Result<TenantHandle, EngineError> {
        let tenant = self.inner.store.keys().owner(key_id)?.ok_or(EngineError::NotFound(Missing::ApiKey))?;
        self.tenant(tenant)
    }

    /// The tenant owning a phone, for operator calls that name only the phone.
    pub fn phone_owner(&self, phone_id: Ulid) -> Result<TenantHandle, EngineError> {
        let tenant =
            self.inner.store.phones().owner(phone_id)?.ok_or(EngineError::NotFound(Missing::Phone))?;
        self.tenant(tenant)
    }

    /// Authenticates a phone agent by its token (constant-time hash comparison).
    pub fn agent(&self, token: &str, user_agent: Option<&str>) -> Result<AgentHandle, EngineError> {
        if !token.starts_with("svc_agent_") {
            return Err(EngineError::InvalidApiKey);
        }
        let hash = credentials::hash(token);
        let pigeon_storage::PhoneLocation { tenant_id, phone_id } =
            self.inner.store.phones().by_token(&hash)?.ok_or(EngineError::InvalidApiKey)?;
        let stored = self.inner.store.phones().get(tenant_id, phone_id)?.and_then(|p| p.agent_token_hash);
        if !stored.is_some_and(|h| credentials::hashes_match(&h, &hash)) {
            return Err(EngineError::InvalidApiKey);
        }
        let (entry, tenant) = self.running_phone(tenant_id, phone_id)?;
        if let Some(ua) = user_agent {
            entry.live.saw_agent(ua);
        }
        Ok(AgentHandle { engine: self.clone(), phone_id, entry, tenant })
    }

    /// A phone's running actor (its tenant's started if need be), marked as just polled: every
    /// agent call counts as a poll. The tenant may be passivating right now, between dropping
    /// its own entry and its phones'; the next look finds (or starts) its successor.
    pub(super) fn running_phone(
        &self,
        tenant_id: Ulid,
        phone_id: Ulid,
    ) -> Result<(PhoneEntry, TenantHandle), EngineError> {
        for _ in 0..3 {
            let tenant = self.tenant(tenant_id)?;
            if let Some(entry) = self.inner.shared.phones.read().unwrap().get(&phone_id).cloned() {
                let now_ms = self.inner.clock.now().timestamp_millis();
                entry.live.polled(&self.inner.store, tenant_id, phone_id, now_ms);
                return Ok((entry, tenant));
            }
        }
        Err(EngineError::InvalidApiKey)
    }

    /// Vets a webhook URL for registration (scheme, host, and private addresses unless allowed).
    pub async fn check_webhook_url(&self, url: &str) -> Result<(), EngineError> {
        crate::webhook::check_url(url, &self.inner.shared.allow_private)
            .await
            .map_err(EngineError::Validation)
    }

    /// Stops the actors (they write back what they hold), then flushes the store. Call last.
    pub async fn shutdown(&self) -> Result<(), EngineError> {
        self.inner.stopping.store(true, Ordering::Relaxed);
        let addrs: Vec<_> = self.inner.tenants.write().unwrap().drain().map(|(_, a)| a).collect();
        for a in addrs {
            let _ = a.send(tenant::Persist).await;
        }
        for arb in self.inner.arbiters.lock().unwrap().drain(..) {
            arb.stop();
            let _ = arb.join();
        }
        self.inner.store.commit().await?;
        // The last commit is in: other nodes of a fleet may take this node's tenants now.
        self.inner.store.fleet().release()?;
        Ok(())
    }
}
