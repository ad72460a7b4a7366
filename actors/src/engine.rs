//! The engine: the store, the clock, and the registry of running actors. Callers get handles, never
//! raw actor addresses; tenant actors start on first use and are spread over a few arbiters
//! (threads) so one busy tenant cannot stall the rest.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{ApiKeyRecord, Environment, Plan, QuietHours, TenantRecord, TenantStatus};
use pigeon_storage::{PendingWork, Store};
use ulid::Ulid;

use crate::clock::{month_key, SharedClock};
use crate::credentials;
use crate::domain::PhoneNumber;
use crate::messaging::{self as msg, PhoneView, SendRequest};
use crate::phone::{self, Job, PhoneActor, PhoneLive};
use crate::tenant::{self, TenantActor, CALLS};
use crate::EngineError;
use pigeon_storage::model::{
    CampaignRecord, Channel, DeliveryRecord, MessageRecord, MessageStatus, PhoneDriver, SimSettings,
    WebhookRecord,
};

/// A running phone actor, findable by phone id (agent calls name only the phone).
#[derive(Clone)]
pub(crate) struct PhoneEntry {
    pub tenant_id: Ulid,
    pub addr: Addr<PhoneActor>,
    pub live: Arc<PhoneLive>,
}

/// Running phone actors by phone id; shared by the engine and the tenant actors that start them.
pub(crate) type PhoneRegistry = Arc<RwLock<HashMap<Ulid, PhoneEntry>>>;

/// Running webhook actors by webhook id.
pub(crate) type WebhookRegistry = Arc<RwLock<HashMap<Ulid, Addr<crate::webhook::WebhookActor>>>>;

/// The engine's work threads (phones, webhooks, campaign runners). A tenant's phones and webhooks
/// are placed by their own id, not beside their tenant, so one busy tenant's work spreads over
/// every core. Tenant actors have threads of their own (`Inner::front`): a sim phone's turn can
/// write hundreds of messages, and an accept must not wait behind it.
#[derive(Clone)]
pub(crate) struct Arbiters(Arc<[ArbiterHandle]>);

impl Arbiters {
    /// The thread that runs the actor of `id`; stable for the life of the process.
    pub(crate) fn for_id(&self, id: Ulid) -> &ArbiterHandle {
        &self.0[(id.random() % self.0.len() as u128) as usize]
    }
}

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
}

/// What the engine shares with every tenant actor it starts.
#[derive(Clone)]
pub(crate) struct Shared {
    pub arbiters: Arbiters,
    pub phones: PhoneRegistry,
    pub webhooks: WebhookRegistry,
    pub allow_private: bool,
    /// Set once, right after the engine starts (the scheduler needs the engine).
    pub scheduler: Arc<std::sync::OnceLock<Addr<crate::scheduler::Scheduler>>>,
}

/// Tuning of the engine.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Threads that run tenant actors (the accept path), and as many again for phones, webhooks
    /// and campaigns.
    pub arbiters: usize,
    /// Let webhooks reach loopback and private networks.
    pub webhook_allow_private: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        Self {
            arbiters: std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8),
            webhook_allow_private: false,
        }
    }
}

/// An API key found by its hash, not yet admitted: what the send path validates with.
pub struct LocatedKey {
    /// The tenant the key belongs to.
    pub tenant_id: Ulid,
    key_id: Ulid,
    hash: String,
}

/// What a successful authentication yields.
#[derive(Debug, Clone)]
pub struct Admitted {
    /// The caller's tenant.
    pub tenant_id: Ulid,
    /// The key used.
    pub key_id: Ulid,
    /// Live or test.
    pub environment: Environment,
}

/// The key's rate state, for the `X-RateLimit-*` headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateInfo {
    /// Calls per minute.
    pub limit: u32,
    /// Calls left right now.
    pub remaining: u32,
    /// Whole seconds until the full allowance is back.
    pub reset: u64,
}

/// A key just made: the only moment its secret exists outside the caller.
#[derive(Debug, Clone)]
pub struct NewKey {
    /// The stored record.
    pub record: ApiKeyRecord,
    /// The full key, shown once.
    pub key: String,
    /// Calls per minute in force.
    pub effective_rate_limit: Option<u32>,
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

/// The operator's changes to a tenant. `Some(None)` on a limit means "back to the plan's".
#[derive(Debug, Clone, Default)]
pub struct TenantPatch {
    /// New plan.
    pub plan: Option<Plan>,
    /// Suspend or reinstate.
    pub status: Option<TenantStatus>,
    /// Paid subscription on or off.
    pub subscription_active: Option<bool>,
    /// Move the end of the trial.
    pub trial_ends_at: Option<DateTime<Utc>>,
    /// Override of new contacts per day.
    pub new_contact_daily_limit: Option<Option<u32>>,
    /// Override of calls per month.
    pub monthly_call_limit: Option<Option<u64>>,
    /// New quiet-hours window.
    pub quiet_hours: Option<QuietHours>,
}

impl TenantPatch {
    /// Refuses a malformed quiet-hours window, naming the field.
    pub fn validate(&self) -> Result<(), EngineError> {
        let Some(q) = &self.quiet_hours else { return Ok(()) };
        let hhmm = |s: &str| chrono::NaiveTime::parse_from_str(s, "%H:%M").is_ok() && s.len() == 5;
        for (field, v) in [("start", &q.start), ("end", &q.end)] {
            if !hhmm(v) {
                return Err(EngineError::Validation(format!(
                    "quiet_hours.{field}: must be HH:MM (24 h), got {v:?}"
                )));
            }
        }
        if q.start == q.end {
            return Err(EngineError::Validation("quiet_hours.end: must differ from start".into()));
        }
        if let Some(tz) = &q.timezone {
            if tz.parse::<chrono_tz::Tz>().is_err() {
                return Err(EngineError::Validation(format!(
                    "quiet_hours.timezone: {tz:?} is not an IANA zone"
                )));
            }
        }
        Ok(())
    }

    pub(crate) fn apply_to(self, t: &mut TenantRecord) {
        if let Some(v) = self.plan {
            t.plan = v;
        }
        if let Some(v) = self.status {
            t.status = v;
        }
        if let Some(v) = self.subscription_active {
            t.subscription_active = v;
        }
        if let Some(v) = self.trial_ends_at {
            t.trial_ends_at = v;
        }
        if let Some(v) = self.new_contact_daily_limit {
            t.new_contact_daily_limit = v;
        }
        if let Some(v) = self.monthly_call_limit {
            t.monthly_call_limit = v;
        }
        if let Some(v) = self.quiet_hours {
            t.quiet_hours = v;
        }
    }
}

/// A running tenant actor, addressed by handle.
#[derive(Clone)]
pub struct TenantHandle {
    addr: Addr<TenantActor>,
}

impl TenantHandle {
    pub(crate) fn from_addr(addr: Addr<TenantActor>) -> Self {
        Self { addr }
    }

    /// Creates a draft campaign.
    pub async fn create_campaign(
        &self,
        c: crate::campaign::NewCampaign,
    ) -> Result<CampaignRecord, EngineError> {
        self.addr.send(crate::campaign::CreateCampaign(c)).await?
    }

    /// Launches a draft campaign (202: it runs in the background).
    pub async fn launch_campaign(&self, id: Ulid) -> Result<CampaignRecord, EngineError> {
        self.addr.send(crate::campaign::Launch { id, resume: false }).await?
    }

    /// Cancels a draft or running campaign.
    pub async fn cancel_campaign(&self, id: Ulid) -> Result<CampaignRecord, EngineError> {
        self.addr.send(crate::campaign::CancelCampaign(id)).await?
    }

    /// Creates a key; answers once it is on disk.
    pub async fn create_key(
        &self,
        name: String,
        rate_limit: Option<u64>,
        environment: Environment,
    ) -> Result<NewKey, EngineError> {
        self.addr.send(tenant::CreateKey { name, rate_limit, environment }).await?
    }

    /// Unrevoked keys, oldest first, with the rate in force.
    pub async fn list_keys(&self) -> Result<Vec<(ApiKeyRecord, Option<u32>)>, EngineError> {
        Ok(self.addr.send(tenant::ListKeys).await?)
    }

    /// Revokes a key of this tenant.
    pub async fn revoke_key(&self, id: Ulid) -> Result<(), EngineError> {
        self.addr.send(tenant::RevokeKey(id)).await?
    }

    /// Deactivates or reactivates a key of this tenant.
    pub async fn set_key_active(&self, key_id: Ulid, active: bool) -> Result<ApiKeyRecord, EngineError> {
        self.addr.send(tenant::SetKeyActive { key_id, active }).await?
    }

    /// Applies the operator's changes.
    pub async fn patch(&self, p: TenantPatch) -> Result<TenantRecord, EngineError> {
        p.validate()?;
        self.addr.send(tenant::Patch(p)).await?
    }

    /// Decides a send (opt-out, new-contact limit, phone) and records it; the answer comes once
    /// the message is on disk.
    pub async fn send(&self, req: SendRequest) -> Result<MessageRecord, EngineError> {
        self.addr.send(msg::Send(req)).await?
    }

    /// Cancels a message not yet leased to a phone.
    pub async fn cancel(&self, id: Ulid) -> Result<MessageRecord, EngineError> {
        self.addr.send(msg::CancelMessage(id)).await?
    }

    /// Adds a phone; an agent phone's token comes back once.
    pub async fn add_phone(
        &self,
        number: PhoneNumber,
        daily_limit: u32,
        driver: PhoneDriver,
        sim: SimSettings,
    ) -> Result<(PhoneView, Option<String>), EngineError> {
        self.addr.send(msg::AddPhone { number, daily_limit, driver, sim }).await?
    }

    /// The tenant's phones, oldest first.
    pub async fn phones(&self) -> Result<Vec<PhoneView>, EngineError> {
        Ok(self.addr.send(msg::ListPhones).await?)
    }

    /// Changes a phone's limit, enabled flag or (sim) online switch.
    pub async fn update_phone(
        &self,
        id: Ulid,
        daily_limit: Option<u32>,
        enabled: Option<bool>,
        online: Option<bool>,
    ) -> Result<PhoneView, EngineError> {
        self.addr.send(msg::UpdatePhone { id, daily_limit, enabled, online }).await?
    }

    /// Whether a number has iMessage: cached for 7 days, else asked of an online phone.
    pub async fn detect(
        &self,
        number: PhoneNumber,
        test: bool,
    ) -> Result<crate::messaging::Detection, EngineError> {
        self.addr.send(msg::DetectNumber { number, test }).await?
    }

    /// Hands a held message back for release.
    pub(crate) fn release(&self, id: Ulid) {
        self.addr.do_send(msg::Release(id));
    }

    /// Deletes a phone; what it still owed fails.
    pub async fn remove_phone(&self, id: Ulid) -> Result<(), EngineError> {
        self.addr.send(msg::RemovePhone(id)).await?
    }

    /// Registers a webhook (URL vetted by [`Engine::check_webhook_url`] first).
    pub async fn create_webhook(
        &self,
        url: String,
        events: Vec<String>,
        secret: Option<String>,
    ) -> Result<WebhookRecord, EngineError> {
        self.addr.send(msg::CreateWebhook { url, events, secret }).await?
    }

    /// The tenant's webhooks, oldest first.
    pub async fn webhooks(&self) -> Result<Vec<WebhookRecord>, EngineError> {
        Ok(self.addr.send(msg::ListWebhooks).await?)
    }

    /// Deletes a webhook.
    pub async fn delete_webhook(&self, id: Ulid) -> Result<(), EngineError> {
        self.addr.send(msg::DeleteWebhook(id)).await?
    }

    /// Creates (`id: None`) or changes a template.
    pub async fn put_template(
        &self,
        id: Option<Ulid>,
        name: Option<String>,
        body: Option<String>,
    ) -> Result<pigeon_storage::model::TemplateRecord, EngineError> {
        self.addr.send(crate::records::PutTemplate { id, name, body }).await?
    }

    /// Deletes a template.
    pub async fn delete_template(&self, id: Ulid) -> Result<(), EngineError> {
        self.addr.send(crate::records::DeleteTemplate(id)).await?
    }

    /// Creates (`id: None`) or changes a contact.
    pub async fn put_contact(
        &self,
        id: Option<Ulid>,
        changes: crate::records::ContactChanges,
    ) -> Result<pigeon_storage::model::ContactRecord, EngineError> {
        self.addr.send(crate::records::PutContact { id, changes }).await?
    }

    /// Deletes a contact.
    pub async fn delete_contact(&self, id: Ulid) -> Result<(), EngineError> {
        self.addr.send(crate::records::DeleteContact(id)).await?
    }

    /// Starts a new attempt cycle for a finished delivery.
    pub async fn retry_delivery(
        &self,
        webhook_id: Ulid,
        delivery_id: Ulid,
    ) -> Result<DeliveryRecord, EngineError> {
        self.addr.send(msg::RetryDelivery { webhook_id, delivery_id }).await?
    }
}

/// A phone agent, authenticated by its token.
#[derive(Clone)]
pub struct AgentHandle {
    phone_id: Ulid,
    entry: PhoneEntry,
    tenant: Addr<TenantActor>,
}

impl AgentHandle {
    /// Long poll: leased jobs, waiting up to `wait` for the first.
    pub async fn poll(&self, wait: std::time::Duration) -> Result<Vec<Job>, EngineError> {
        self.entry.addr.send(phone::Poll { wait }).await?
    }

    /// A status report on a message this phone holds.
    pub async fn report(
        &self,
        message_id: Ulid,
        status: MessageStatus,
        failure_reason: Option<String>,
        channel_used: Option<Channel>,
    ) -> Result<MessageRecord, EngineError> {
        self.entry.addr.send(phone::Report { message_id, status, failure_reason, channel_used }).await?
    }

    /// An inbound text; STOP/START words change the sender's opt-out.
    pub async fn inbound(&self, from: PhoneNumber, body: String) -> Result<MessageRecord, EngineError> {
        self.tenant.send(msg::Inbound { phone_id: self.phone_id, from, body }).await?
    }

    /// The answer to a detection job; returns the number it was about.
    pub async fn answer_detection(&self, job_id: Ulid, imessage: bool) -> Result<String, EngineError> {
        self.entry.addr.send(phone::AnswerDetect { job_id, imessage }).await?
    }

    /// The tenant this phone belongs to.
    pub fn tenant_id(&self) -> Ulid {
        self.entry.tenant_id
    }
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
    next: AtomicUsize,
    tenants: RwLock<HashMap<Ulid, Addr<TenantActor>>>,
    shared: Shared,
    admin_hash: RwLock<Option<String>>,
}

/// Prefix of the generated operator token.
const ADMIN_PREFIX: &str = "svc_admin_";
/// Counter name prefix of first-time recipients per day.
pub(crate) const NEW_CONTACTS: &str = "new_contacts:";

/// How much nicer the work threads are than the rest. Delivery can wait a few milliseconds; an
/// accept should not: on two cores, bursts of sim deliveries and webhook POSTs at equal priority
/// stretched accept latency at half load to p90 8.5 ms (hundreds of ms when they shared threads).
/// Four steps nicer (weight 423 against 1024), accepts come first under load and delivery keeps
/// its pace; ten steps starved delivery (4.0k against 9.5k accepted/s) and grew the backlog.
const WORK_NICE: i32 = 4;

/// Lowers the calling thread's priority by [`WORK_NICE`] (Linux keeps niceness per thread).
fn background_priority() {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{getpriority_process, setpriority_process};
        let me = Some(rustix::thread::gettid());
        let lowered = getpriority_process(me).and_then(|n| setpriority_process(me, (n + WORK_NICE).min(19)));
        if let Err(e) = lowered {
            tracing::warn!(error = %e, "cannot lower the work threads' priority");
        }
    }
}

impl Engine {
    /// Starts the engine's arbiters. Must run inside an actix `System`.
    pub fn start(store: Store, clock: SharedClock, config: EngineConfig) -> Result<Self, EngineError> {
        // awc's TLS client needs a process-wide crypto provider; a second install is harmless.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let n = config.arbiters.max(1);
        let arbiters: Vec<Arbiter> = (0..2 * n).map(|_| Arbiter::new()).collect();
        let handles: Vec<ArbiterHandle> = arbiters.iter().map(Arbiter::handle).collect();
        let (front, work) = handles.split_at(n);
        for h in work {
            h.spawn_fn(background_priority);
        }
        let shared = Shared {
            arbiters: Arbiters(work.into()),
            phones: PhoneRegistry::default(),
            webhooks: WebhookRegistry::default(),
            allow_private: config.webhook_allow_private,
            scheduler: Arc::default(),
        };
        let admin_hash = store.admin_token_hash()?;
        let engine = Self {
            inner: Arc::new(Inner {
                store,
                clock,
                front: Arbiters(front.into()),
                arbiters: Mutex::new(arbiters),
                next: AtomicUsize::new(0),
                tenants: RwLock::new(HashMap::new()),
                shared,
                admin_hash: RwLock::new(admin_hash),
            }),
        };
        let me = engine.clone();
        let sched = crate::scheduler::Scheduler::start_in_arbiter(&engine.inner.front.0[0], move |_| {
            crate::scheduler::Scheduler::new(me)
        });
        let _ = engine.inner.shared.scheduler.set(sched);
        Ok(engine)
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The clock.
    pub fn clock(&self) -> &SharedClock {
        &self.inner.clock
    }

    /// Makes sure an operator token exists. A configured token replaces the stored one; with none
    /// configured and none stored, a token is generated and returned so it can be shown once.
    pub async fn ensure_admin_token(&self, configured: Option<&str>) -> Result<Option<String>, EngineError> {
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
            self.inner.store.set_admin_token_hash(&hash)?;
            self.inner.store.commit().await?;
            *self.inner.admin_hash.write().unwrap() = Some(hash);
        }
        Ok(generated)
    }

    /// True if `token` is the operator token.
    pub fn is_admin(&self, token: &str) -> bool {
        let hash = credentials::hash(token);
        self.inner.admin_hash.read().unwrap().as_deref().is_some_and(|h| credentials::hashes_match(h, &hash))
    }

    /// Authenticates an API key and charges the call: the key's rate, then the tenant's month.
    /// The rate state comes back also on refusal, for the headers of a 429.
    pub async fn authenticate(&self, key: &str) -> (Option<RateInfo>, Result<Admitted, EngineError>) {
        let key = match self.locate_key(key) {
            Ok(k) => k,
            Err(e) => return (None, Err(e)),
        };
        let addr = match self.located_owner(&key) {
            Ok(a) => a,
            Err(e) => return (None, Err(e)),
        };
        match addr.send(tenant::Admit { key_id: key.key_id, hash: key.hash }).await {
            Ok(r) => r,
            Err(e) => (None, Err(e.into())),
        }
    }

    /// Where an API key may belong, found without the tenant's actor (which still compares the
    /// whole hash: [`Engine::send_with_key`]).
    pub fn locate_key(&self, key: &str) -> Result<LocatedKey, EngineError> {
        if !credentials::looks_like_api_key(key) {
            return Err(EngineError::InvalidApiKey);
        }
        let hash = credentials::hash(key);
        let (tenant_id, key_id) = self.inner.store.key_by_hash(&hash)?.ok_or(EngineError::InvalidApiKey)?;
        Ok(LocatedKey { tenant_id, key_id, hash })
    }

    /// The actor of a located key's tenant; a tenant gone since the lookup makes the key invalid.
    fn located_owner(&self, key: &LocatedKey) -> Result<Addr<TenantActor>, EngineError> {
        match self.addr(key.tenant_id) {
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
        match addr.send(msg::AdmitSend { key_id: key.key_id, hash: key.hash, req }).await {
            Ok(r) => r,
            Err(e) => (None, Err(e.into())),
        }
    }

    /// Creates a tenant with a live and a test key, on disk before it returns.
    pub async fn create_tenant(&self, name: String, plan: Plan) -> Result<CreatedTenant, EngineError> {
        let now = self.inner.clock.now();
        let tenant = TenantRecord {
            id: pigeon_storage::model::new_id(),
            name,
            plan,
            status: TenantStatus::Active,
            subscription_active: false,
            trial_ends_at: now + chrono::Days::new(14),
            new_contact_daily_limit: None,
            monthly_call_limit: None,
            quiet_hours: QuietHours::default(),
            created_at: now,
        };
        let new = |env: Environment, name: &str| {
            let (record, key) = tenant::new_key(tenant.id, name.into(), env, None, now);
            let effective_rate_limit = record.effective_rate_limit(plan);
            NewKey { record, key, effective_rate_limit }
        };
        let live = new(Environment::Live, "default live key");
        let test = new(Environment::Test, "default test key");
        self.inner.store.create_tenant(&tenant, &[live.record.clone(), test.record.clone()])?;
        self.inner.store.commit().await?;
        Ok(CreatedTenant { tenant, live, test })
    }

    /// Makes the demo tenant (scale plan, two sim phones) unless an earlier start made it.
    pub async fn ensure_demo(&self) -> Result<Demo, EngineError> {
        if let Some(id) = self.inner.store.demo_tenant()? {
            return Ok(Demo::Existing(id));
        }
        let created = self.create_tenant("demo".into(), Plan::Scale).await?;
        let handle = self.tenant(created.tenant.id)?;
        // The demo's curl line must deliver at any hour of the day.
        let quiet_off = QuietHours { enabled: false, ..QuietHours::default() };
        handle.patch(TenantPatch { quiet_hours: Some(quiet_off), ..TenantPatch::default() }).await?;
        let mut phones = Vec::new();
        for number in DEMO_PHONES {
            let n = PhoneNumber::parse(number).expect("valid demo number");
            let sim = SimSettings { latency_ms: 200, failure_rate: 0.0 };
            handle.add_phone(n, 10_000, PhoneDriver::Sim, sim).await?;
            phones.push(number.to_string());
        }
        self.inner.store.set_demo_tenant(created.tenant.id)?;
        self.inner.store.commit().await?;
        Ok(Demo::Created { tenant: Box::new(created), phones })
    }

    /// A tenant's record and usage, from the store (the actor writes through to it).
    pub fn tenant_view(&self, id: Ulid) -> Result<(TenantRecord, Usage), EngineError> {
        let t = self.inner.store.tenant(id)?.ok_or(EngineError::NotFound("tenant"))?;
        let usage = self.usage(id)?;
        Ok((t, usage))
    }

    /// Tenants in creation order after `after`, with usage.
    pub fn list_tenants(
        &self,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<(TenantRecord, Usage)>, EngineError> {
        self.inner
            .store
            .tenants(after, limit)?
            .into_iter()
            .map(|t| {
                let u = self.usage(t.id)?;
                Ok((t, u))
            })
            .collect()
    }

    fn usage(&self, id: Ulid) -> Result<Usage, EngineError> {
        let now = self.inner.clock.now();
        let s = &self.inner.store;
        Ok(Usage {
            api_calls_this_month: s.counter(id, &format!("{CALLS}{}", month_key(now)))?,
            new_contacts_today: s.counter(id, &format!("{NEW_CONTACTS}{}", now.date_naive()))?,
        })
    }

    /// How many tenant actors are running.
    pub fn running_tenants(&self) -> usize {
        self.inner.tenants.read().unwrap().len()
    }

    /// How much work waits, over every running actor: for `/metrics`.
    pub async fn depths(&self) -> Depths {
        let mut d = Depths::default();
        let phones: Vec<_> =
            self.inner.shared.phones.read().unwrap().values().map(|e| e.addr.clone()).collect();
        for a in phones {
            if let Ok((queued, in_flight)) = a.send(phone::Depth).await {
                d.queued += queued;
                d.in_flight += in_flight;
            }
        }
        let hooks: Vec<_> = self.inner.shared.webhooks.read().unwrap().values().cloned().collect();
        for a in hooks {
            d.webhook_deliveries += a.send(crate::webhook::Depth).await.unwrap_or(0);
        }
        if let Some(s) = self.inner.shared.scheduler.get() {
            d.held = s.send(crate::scheduler::Depth).await.unwrap_or(0);
        }
        d
    }

    /// The handle of a tenant's actor, starting it if needed; `NotFound` for unknown tenants.
    pub fn tenant(&self, id: Ulid) -> Result<TenantHandle, EngineError> {
        Ok(TenantHandle { addr: self.addr(id)? })
    }

    /// The tenant owning a key, for operator calls that name only the key.
    pub fn key_owner(&self, key_id: Ulid) -> Result<TenantHandle, EngineError> {
        let tenant = self.inner.store.key_owner(key_id)?.ok_or(EngineError::NotFound("API key"))?;
        self.tenant(tenant)
    }

    fn addr(&self, id: Ulid) -> Result<Addr<TenantActor>, EngineError> {
        if let Some(a) = self.inner.tenants.read().unwrap().get(&id) {
            return Ok(a.clone());
        }
        let mut map = self.inner.tenants.write().unwrap();
        if let Some(a) = map.get(&id) {
            return Ok(a.clone());
        }
        let record = self.inner.store.tenant(id)?.ok_or(EngineError::NotFound("tenant"))?;
        let all = &self.inner.front.0;
        let arbiter = &all[self.inner.next.fetch_add(1, Ordering::Relaxed) % all.len()];
        let actor = TenantActor::load(
            self.inner.store.clone(),
            self.inner.clock.clone(),
            record,
            &self.inner.shared,
        )?;
        let addr = TenantActor::start_in_arbiter(arbiter, move |_| actor);
        map.insert(id, addr.clone());
        Ok(addr)
    }

    /// The tenant owning a phone, for operator calls that name only the phone.
    pub fn phone_owner(&self, phone_id: Ulid) -> Result<TenantHandle, EngineError> {
        let tenant = self.inner.store.phone_owner(phone_id)?.ok_or(EngineError::NotFound("phone"))?;
        self.tenant(tenant)
    }

    /// Authenticates a phone agent by its token (constant-time hash comparison).
    pub fn agent(&self, token: &str) -> Result<AgentHandle, EngineError> {
        if !token.starts_with("svc_agent_") {
            return Err(EngineError::InvalidApiKey);
        }
        let hash = credentials::hash(token);
        let (tenant_id, phone_id) =
            self.inner.store.phone_by_token(&hash)?.ok_or(EngineError::InvalidApiKey)?;
        let stored = self.inner.store.phone(tenant_id, phone_id)?.and_then(|p| p.agent_token_hash);
        if !stored.is_some_and(|h| credentials::hashes_match(&h, &hash)) {
            return Err(EngineError::InvalidApiKey);
        }
        let tenant = self.addr(tenant_id)?;
        let entry = self
            .inner
            .shared
            .phones
            .read()
            .unwrap()
            .get(&phone_id)
            .cloned()
            .ok_or(EngineError::InvalidApiKey)?;
        entry.live.polled(self.inner.clock.now().timestamp_millis());
        Ok(AgentHandle { phone_id, entry, tenant })
    }

    /// Vets a webhook URL for registration (scheme, host, and private addresses unless allowed).
    pub async fn check_webhook_url(&self, url: &str) -> Result<(), EngineError> {
        crate::webhook::check_url(url, self.inner.shared.allow_private).await.map_err(EngineError::Validation)
    }

    /// One message of a tenant, straight from the store.
    pub fn message(&self, tenant: Ulid, id: Ulid) -> Result<MessageRecord, EngineError> {
        self.inner.store.message(tenant, id)?.ok_or(EngineError::NotFound("message"))
    }

    /// Resumes what the store says is still owed: queued and leased messages go back to their
    /// phones, test messages complete. Call once at start-up.
    pub fn recover(&self) -> Result<usize, EngineError> {
        let store = &self.inner.store;
        // Only the index is read here, so start-up does not grow with the backlog; each phone
        // actor reads its messages in chunks afterwards, and drops entries a crash left stale.
        let work = store.pending()?;
        let n = work.len();
        let mut by_phone: Vec<(Option<Ulid>, Ulid, Vec<Ulid>)> = Vec::new();
        for w in work {
            match by_phone.last_mut() {
                Some((p, t, ids)) if *p == w.phone_id && *t == w.tenant_id => ids.push(w.message_id),
                _ => by_phone.push((w.phone_id, w.tenant_id, vec![w.message_id])),
            }
        }
        for (phone_id, tenant_id, ids) in by_phone {
            let tenant = match self.addr(tenant_id) {
                Ok(a) => a,
                Err(e) => {
                    tracing::error!(error = %e, %tenant_id, "cannot resume the tenant's messages");
                    continue;
                }
            };
            match phone_id {
                None => ids.into_iter().for_each(|id| {
                    if matches!(store.message(tenant_id, id), Ok(Some(m)) if m.status.is_pending()) {
                        tenant.do_send(msg::CompleteTest(id));
                    } else {
                        let _ =
                            store.drop_pending(&PendingWork { phone_id: None, tenant_id, message_id: id });
                    }
                }),
                Some(p) => match self.inner.shared.phones.read().unwrap().get(&p) {
                    Some(entry) => entry.addr.do_send(phone::Recover(ids)),
                    None => tracing::error!(phone_id = %p, "pending messages of a missing phone"),
                },
            }
        }
        let mut deliveries: Vec<(Ulid, Ulid, Vec<Ulid>)> = Vec::new();
        for (tenant, webhook, id) in store.due_deliveries()? {
            match deliveries.last_mut() {
                Some((_, w, ids)) if *w == webhook => ids.push(id),
                _ => deliveries.push((tenant, webhook, vec![id])),
            }
        }
        let d: usize = deliveries.iter().map(|(_, _, ids)| ids.len()).sum();
        for c in store.running_campaigns()? {
            if let Ok(addr) = self.addr(c.tenant_id) {
                addr.do_send(crate::campaign::Launch { id: c.id, resume: true });
            }
        }
        for (tenant, webhook, ids) in deliveries {
            if self.addr(tenant).is_err() {
                continue;
            }
            if let Some(addr) = self.inner.shared.webhooks.read().unwrap().get(&webhook) {
                addr.do_send(crate::webhook::Resume(ids));
            }
        }
        if n + d > 0 {
            tracing::info!(messages = n, webhook_deliveries = d, "resumed pending work");
        }
        Ok(n + d)
    }

    /// Stops the actors (they write back what they hold), then flushes the store. Call last.
    pub async fn shutdown(&self) -> Result<(), EngineError> {
        let addrs: Vec<_> = self.inner.tenants.write().unwrap().drain().map(|(_, a)| a).collect();
        for a in addrs {
            let _ = a.send(tenant::Persist).await;
        }
        for arb in self.inner.arbiters.lock().unwrap().drain(..) {
            arb.stop();
            let _ = arb.join();
        }
        self.inner.store.commit().await?;
        Ok(())
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use rustix::process::getpriority_process;

    /// The niceness of the thread behind `h`.
    fn nice_of(h: &ArbiterHandle) -> i32 {
        let (tx, rx) = std::sync::mpsc::channel();
        h.spawn_fn(move || {
            let _ = tx.send(getpriority_process(Some(rustix::thread::gettid())).expect("getpriority"));
        });
        rx.recv_timeout(std::time::Duration::from_secs(5)).expect("the arbiter answers")
    }

    #[actix_rt::test]
    async fn work_threads_are_nicer_than_the_tenant_threads() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let config = EngineConfig { arbiters: 2, ..EngineConfig::default() };
        let engine = Engine::start(store, crate::clock::SystemClock::shared(), config).unwrap();
        let base = getpriority_process(None).unwrap();
        let work: Vec<i32> = engine.inner.shared.arbiters.0.iter().map(nice_of).collect();
        let front: Vec<i32> = engine.inner.front.0.iter().map(nice_of).collect();
        assert_eq!(work, vec![(base + WORK_NICE).min(19); 2]);
        assert_eq!(front, vec![base; 2]);
        engine.shutdown().await.unwrap();
    }
}
