//! The tenant actor: one per tenant, the only writer of its keys, limits, counters and phones'
//! capacity; it decides every send. Its handlers apply a change to memory and to sled
//! synchronously (so changes are ordered), and answer only after the group commit that makes the
//! change durable. One message family per file: admission, keys, send, lifecycle (release,
//! completion, cancel, inbound), phones, webhooks, detect, records (templates and contacts),
//! campaigns and their runner.

mod admission;
mod campaigns;
mod detect;
mod health;
mod idempotency;
mod keys;
mod lifecycle;
mod media;
mod opt_outs;
mod phones;
mod records;
mod rest;
mod runner;
mod send;
mod webhooks;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{ApiKeyRecord, Plan, QuietHours, TenantRecord, TenantStatus};
use pigeon_storage::Store;
use ulid::Ulid;

use crate::clock::{month_key, SharedClock};
use crate::durable::after_commit;
use crate::registry::Shared;
use crate::EngineError;

use admission::{limiter, Limiter};

pub(crate) use admission::{Admit, CALLS};
pub use admission::{Admitted, Credential, RateInfo};
pub use campaigns::NewCampaign;
pub(crate) use campaigns::{CancelCampaign, CreateCampaign, Launch};
pub use detect::Detection;
pub(crate) use detect::{DetectNumber, DETECTION_TTL};
pub(crate) use idempotency::IDEMPOTENCY_WINDOW;
pub use keys::NewKey;
pub(crate) use keys::{new_key, CreateKey, ListKeys, RevokeKey, SetKeyActive};
pub(crate) use lifecycle::{CancelMessage, CompleteTest, Inbound, Release};
pub(crate) use media::{MediaRoom, RecordMedia};
pub(crate) use opt_outs::{AddOptOut, RemoveOptOut};
pub(crate) use phones::sent_counter;
pub use phones::PhoneView;
pub(crate) use phones::{AddPhone, ListPhones, PhoneSlot, RemovePhone, UpdatePhone};
pub use records::{render, ContactChanges};
pub(crate) use records::{DeleteContact, DeleteTemplate, PutContact, PutTemplate};
pub use send::{choose_phone, lacks, SendRequest};
pub(crate) use send::{AdmitSend, Send, NEW_CONTACTS};
pub(crate) use webhooks::{
    CreateWebhook, DeleteWebhook, ListWebhooks, PatchWebhook, RecoverWebhook, RetryDelivery, RotateSecret,
    SendTestEvent,
};

/// Running tenant actors by tenant id: the engine adds them, and one that passivates removes
/// itself (`rest.rs`).
pub(crate) type TenantRegistry = Arc<std::sync::RwLock<HashMap<Ulid, Addr<TenantActor>>>>;

/// How often `last_used_at` changes are written back.
const PERSIST_EVERY: Duration = Duration::from_secs(5);

struct KeyState {
    rec: ApiKeyRecord,
    limiter: Option<Limiter>,
    /// `last_used_at` moved since it was last written.
    dirty: bool,
}

/// The tenant's unrevoked keys, sorted by id. A tenant holds at most `MAX_ACTIVE_KEYS`, so a
/// sorted vector exactly as long as needed finds a key as fast as a hash map, in less than half
/// the memory (every running tenant carries it).
struct KeyRing(Vec<KeyState>);

impl KeyRing {
    fn new(mut keys: Vec<KeyState>) -> Self {
        keys.sort_unstable_by_key(|k| k.rec.id);
        keys.shrink_to_fit();
        Self(keys)
    }

    /// Where the key is, or where it would go.
    fn find(&self, id: &Ulid) -> Result<usize, usize> {
        self.0.binary_search_by_key(id, |k| k.rec.id)
    }

    fn get(&self, id: &Ulid) -> Option<&KeyState> {
        self.find(id).ok().map(|i| &self.0[i])
    }

    fn get_mut(&mut self, id: &Ulid) -> Option<&mut KeyState> {
        self.find(id).ok().map(|i| &mut self.0[i])
    }

    fn insert(&mut self, key: KeyState) {
        match self.find(&key.rec.id) {
            Ok(i) => self.0[i] = key,
            Err(i) => self.0.insert(i, key),
        }
        self.0.shrink_to_fit();
    }

    fn remove(&mut self, id: &Ulid) {
        if let Ok(i) = self.find(id) {
            self.0.remove(i);
            self.0.shrink_to_fit();
        }
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn iter(&self) -> impl Iterator<Item = &KeyState> {
        self.0.iter()
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut KeyState> {
        self.0.iter_mut()
    }
}

pub(crate) struct TenantActor {
    pub(crate) store: Store,
    pub(crate) clock: SharedClock,
    pub(crate) tenant: TenantRecord,
    /// Unrevoked keys only: a revoked key is forgotten, so it cannot authenticate.
    keys: KeyRing,
    /// Rate limiters of identity-provider subjects (`sub`), made on first use at the plan's
    /// default rate; at most `MAX_SUBJECTS` (admission.rs).
    subjects: HashMap<String, Option<Limiter>>,
    month: String,
    calls: u64,
    /// The tenant's phones, oldest first, with today's use.
    pub(crate) phones: Vec<PhoneSlot>,
    /// First-time recipients counted today: (UTC day, count).
    pub(crate) new_today: (chrono::NaiveDate, u64),
    /// The tenant's webhooks and their actors.
    pub(crate) subs: crate::webhook::Subscribers,
    /// What every tenant actor shares (registries, threads, scheduler, settings): one pointer,
    /// not a copy of each, since a running tenant's size is what a node's memory scales with.
    pub(crate) shared: Arc<Shared>,
    /// Runners of the tenant's running campaigns.
    pub(crate) runners: HashMap<Ulid, Addr<runner::CampaignRunner>>,
    /// The engine's running tenants, which this actor leaves when it passivates (`rest.rs`).
    tenants: TenantRegistry,
    /// The last work (engine clock): a call, an inbound text, a release, a launch.
    last_active: DateTime<Utc>,
    /// When every limiter checked so far is whole again (engine clock; `rest.rs`).
    limiters_full_at: Option<DateTime<Utc>>,
    /// A `Rest` is in the mailbox.
    rest_asked: bool,
    /// Contacts, templates and campaigns held, once counted (`records.rs`).
    counts: records::RecordCounts,
    /// Bytes of media held, once counted (`media.rs`).
    media_bytes: Option<u64>,
}

impl TenantActor {
    pub(crate) fn load(
        store: Store,
        clock: SharedClock,
        tenant: TenantRecord,
        shared: &Arc<Shared>,
        tenants: &TenantRegistry,
    ) -> Result<Self, EngineError> {
        let subs = crate::webhook::Subscribers::new(shared.links.clone());
        let now = clock.now();
        let month = month_key(now);
        let today = clock.now().date_naive();
        let new_today = (today, store.tenants().counter(tenant.id, &format!("{}{today}", NEW_CONTACTS))?);
        let mut phones = store
            .phones()
            .of(tenant.id)?
            .into_iter()
            .map(|rec| {
                let arbiter = shared.arbiters.for_id(rec.id);
                PhoneSlot::start(&store, &clock, rec, shared, &subs, arbiter)
            })
            .collect::<Result<Vec<_>, _>>()?;
        phones.shrink_to_fit();
        let webhooks = store.webhooks().of(tenant.id)?;
        let calls = store.tenants().counter(tenant.id, &format!("{CALLS}{month}"))?;
        let keys: Vec<KeyState> = store
            .keys()
            .of(tenant.id)?
            .into_iter()
            .filter(|k| k.revoked_at.is_none())
            .map(|rec| {
                let limiter = limiter(&rec, tenant.plan, &clock);
                KeyState { rec, limiter, dirty: false }
            })
            .collect();
        let keys = KeyRing::new(keys);
        let me = Self {
            store,
            clock,
            tenant,
            keys,
            subjects: HashMap::new(),
            month,
            calls,
            phones,
            new_today,
            subs,
            shared: shared.clone(),
            runners: HashMap::new(),
            tenants: tenants.clone(),
            last_active: now,
            limiters_full_at: None,
            rest_asked: false,
            counts: Default::default(),
            media_bytes: None,
        };
        for w in webhooks {
            me.start_webhook(w);
        }
        Ok(me)
    }

    fn persist_last_used(&mut self) {
        for k in self.keys.iter_mut().filter(|k| k.dirty) {
            // Only `last_used_at` changed since the key was last put (revocation puts at once).
            match self.store.keys().touch(&k.rec) {
                Ok(()) => k.dirty = false,
                Err(e) => log_store_failure!(e, key_id = %k.rec.id, "cannot persist last_used_at"),
            }
        }
    }
}

/// What a phone needs of its tenant actor.
pub(super) fn owner(ctx: &Context<TenantActor>) -> crate::phone::OwnerAddr {
    let me = ctx.address();
    crate::phone::OwnerAddr { failover: me.clone().recipient(), disable: me.recipient() }
}

impl Actor for TenantActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        // Another node may have appended to the tenant's events since this one last did.
        if let Err(e) = self.store.events().refresh(self.tenant.id) {
            log_store_failure!(e, "cannot read the tenant's last event");
        }
        for p in &self.phones {
            p.addr.do_send(crate::phone::Owner(owner(ctx)));
        }
        // One timer for these chores: each running tenant pays for every timer it holds.
        ctx.run_interval(rest::check_every(self.shared.actor_idle), |act, ctx| {
            act.persist_last_used();
            act.sweep_health(act.clock.now());
            act.consider_rest(ctx);
        });
    }

    fn stopping(&mut self, _: &mut Self::Context) -> Running {
        self.persist_last_used();
        Running::Stop
    }
}

/// Apply the operator's changes to the tenant.
#[derive(Message, Clone)]
#[rtype(result = "Result<TenantRecord, EngineError>")]
pub(crate) struct Patch(pub TenantPatch);

impl Handler<Patch> for TenantActor {
    type Result = ResponseFuture<Result<TenantRecord, EngineError>>;

    fn handle(&mut self, Patch(p): Patch, _: &mut Self::Context) -> Self::Result {
        let mut t = self.tenant.clone();
        let old_plan = t.plan;
        let replies = p.validate_replies();
        p.apply_to(&mut t);
        let res = replies
            .and_then(|()| TenantPatch::validate(&t.quiet_hours))
            .and_then(|()| self.store.tenants().put(&t).map_err(EngineError::from));
        if res.is_ok() {
            if t.plan != old_plan {
                for k in self.keys.iter_mut() {
                    k.limiter = limiter(&k.rec, t.plan, &self.clock);
                }
                self.subjects.clear();
            }
            self.tenant = t.clone();
        }
        after_commit(&self.store, res.map(|()| t))
    }
}

/// Write back pending `last_used_at` values (shutdown).
#[derive(Message, Clone)]
#[rtype(result = "()")]
pub(crate) struct Persist;

impl Handler<Persist> for TenantActor {
    type Result = ();
    fn handle(&mut self, _: Persist, _: &mut Self::Context) {
        self.persist_last_used();
    }
}

/// The longest keyword reply, as the longest message body.
pub const MAX_REPLY_CHARS: usize = 10_000;

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
    /// Override of the media bound, bytes.
    pub media_bytes_limit: Option<Option<u64>>,
    /// Changes to the quiet-hours window: only the fields named change.
    pub quiet_hours: Option<QuietHoursPatch>,
    /// Keyword replies (`PATCH /v1/settings`): `Some(None)` turns one off.
    pub opt_out_reply: Option<Option<String>>,
    /// See `opt_out_reply`.
    pub opt_in_reply: Option<Option<String>>,
    /// See `opt_out_reply`.
    pub help_reply: Option<Option<String>>,
}

/// A PATCH of the quiet-hours window: each field optional, `timezone: Some(None)` back to UTC.
#[derive(Debug, Clone, Default)]
pub struct QuietHoursPatch {
    /// On or off.
    pub enabled: Option<bool>,
    /// `HH:MM` start.
    pub start: Option<String>,
    /// `HH:MM` end.
    pub end: Option<String>,
    /// IANA zone; `Some(None)` clears it.
    pub timezone: Option<Option<String>>,
}

impl QuietHoursPatch {
    fn apply_to(self, q: &mut QuietHours) {
        if let Some(v) = self.enabled {
            q.enabled = v;
        }
        if let Some(v) = self.start {
            q.start = v;
        }
        if let Some(v) = self.end {
            q.end = v;
        }
        if let Some(v) = self.timezone {
            q.timezone = v;
        }
    }
}

impl TenantPatch {
    /// Refuses a malformed quiet-hours window (the tenant's with this patch applied), naming the
    /// field.
    pub(crate) fn validate(q: &QuietHours) -> Result<(), EngineError> {
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
        if let Some(v) = self.media_bytes_limit {
            t.media_bytes_limit = v;
        }
        if let Some(v) = self.quiet_hours {
            v.apply_to(&mut t.quiet_hours);
        }
        for (patch, reply) in [
            (self.opt_out_reply, &mut t.replies.opt_out_reply),
            (self.opt_in_reply, &mut t.replies.opt_in_reply),
            (self.help_reply, &mut t.replies.help_reply),
        ] {
            if let Some(v) = patch {
                *reply = v;
            }
        }
    }

    /// Refuses a reply that could not be sent as a message (empty, or longer than one may be).
    pub(crate) fn validate_replies(&self) -> Result<(), EngineError> {
        for (field, v) in [
            ("opt_out_reply", &self.opt_out_reply),
            ("opt_in_reply", &self.opt_in_reply),
            ("help_reply", &self.help_reply),
        ] {
            if let Some(Some(text)) = v {
                let n = text.chars().count();
                if text.trim().is_empty() || n > MAX_REPLY_CHARS {
                    return Err(EngineError::Validation(format!(
                        "{field}: must be 1 to {MAX_REPLY_CHARS} characters, or null to send none"
                    )));
                }
            }
        }
        Ok(())
    }
}
