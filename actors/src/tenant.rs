//! The tenant actor: one per tenant, the only writer of its keys, limits and counters. Its
//! handlers apply a change to memory and to sled synchronously (so changes are ordered), and
//! answer only after the group commit that makes the change durable.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::time::Duration;

use actix::prelude::*;
use chrono::{DateTime, Utc};
use governor::middleware::StateInformationMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use pigeon_storage::model::{ApiKeyRecord, Environment, Plan, TenantRecord};
use pigeon_storage::Store;
use ulid::Ulid;

use crate::clock::{ceil_secs, month_key, secs_to_next_month, GovernorClock, SharedClock};
use crate::credentials;
use crate::engine::{Admitted, NewKey, RateInfo, TenantPatch};
use crate::EngineError;

type Limiter = RateLimiter<NotKeyed, InMemoryState, GovernorClock, StateInformationMiddleware>;

/// A tenant may hold at most this many unrevoked keys.
pub(crate) const MAX_ACTIVE_KEYS: usize = 50;
/// How often `last_used_at` changes are written back.
const PERSIST_EVERY: Duration = Duration::from_secs(5);
/// Counter name prefix of the monthly call count.
pub(crate) const CALLS: &str = "calls:";

struct KeyState {
    rec: ApiKeyRecord,
    limiter: Option<Limiter>,
    /// `last_used_at` moved since it was last written.
    dirty: bool,
}

pub(crate) struct TenantActor {
    pub(crate) store: Store,
    pub(crate) clock: SharedClock,
    pub(crate) tenant: TenantRecord,
    /// Unrevoked keys only: a revoked key is forgotten, so it cannot authenticate.
    keys: HashMap<Ulid, KeyState>,
    month: String,
    calls: u64,
    /// The tenant's phones, oldest first, with today's use.
    pub(crate) phones: Vec<crate::messaging::PhoneSlot>,
    /// First-time recipients counted today: (UTC day, count).
    pub(crate) new_today: (chrono::NaiveDate, u64),
    pub(crate) registry: crate::engine::PhoneRegistry,
    /// The tenant's webhooks and their actors.
    pub(crate) subs: crate::webhook::Subscribers,
    pub(crate) webhook_registry: crate::engine::WebhookRegistry,
    /// Where the tenant's phone and webhook actors run.
    pub(crate) arbiters: crate::engine::Arbiters,
    pub(crate) allow_private: bool,
    /// Where held messages wait.
    pub(crate) scheduler: Option<Addr<crate::scheduler::Scheduler>>,
    /// Runners of the tenant's running campaigns.
    pub(crate) runners: HashMap<Ulid, Addr<crate::campaign::CampaignRunner>>,
}

fn limiter(rec: &ApiKeyRecord, plan: Plan, clock: &SharedClock) -> Option<Limiter> {
    let per_minute = NonZeroU32::new(rec.effective_rate_limit(plan)?)?;
    Some(
        RateLimiter::direct_with_clock(Quota::per_minute(per_minute), GovernorClock(clock.clone()))
            .with_middleware::<StateInformationMiddleware>(),
    )
}

impl TenantActor {
    pub(crate) fn load(
        store: Store,
        clock: SharedClock,
        tenant: TenantRecord,
        shared: &crate::engine::Shared,
    ) -> Result<Self, EngineError> {
        let registry = shared.phones.clone();
        let subs = crate::webhook::Subscribers::default();
        let month = month_key(clock.now());
        let today = clock.now().date_naive();
        let new_today =
            (today, store.counter(tenant.id, &format!("{}{today}", crate::engine::NEW_CONTACTS))?);
        let phones = store
            .phones_of(tenant.id)?
            .into_iter()
            .map(|rec| {
                let arbiter = shared.arbiters.for_id(rec.id);
                crate::messaging::PhoneSlot::start(&store, &clock, rec, &registry, &subs, arbiter)
            })
            .collect::<Result<_, _>>()?;
        let webhooks = store.webhooks_of(tenant.id)?;
        let calls = store.counter(tenant.id, &format!("{CALLS}{month}"))?;
        let keys = store
            .keys_of(tenant.id)?
            .into_iter()
            .filter(|k| k.revoked_at.is_none())
            .map(|rec| {
                let limiter = limiter(&rec, tenant.plan, &clock);
                (rec.id, KeyState { rec, limiter, dirty: false })
            })
            .collect();
        let me = Self {
            store,
            clock,
            tenant,
            keys,
            month,
            calls,
            phones,
            new_today,
            registry,
            subs,
            webhook_registry: shared.webhooks.clone(),
            arbiters: shared.arbiters.clone(),
            allow_private: shared.allow_private,
            scheduler: shared.scheduler.get().cloned(),
            runners: HashMap::new(),
        };
        for w in webhooks {
            me.start_webhook(w);
        }
        Ok(me)
    }

    /// Counts one live call against the month, refusing when the month is used up.
    fn count_call(&mut self, now: DateTime<Utc>) -> Result<(), EngineError> {
        let month = month_key(now);
        if month != self.month {
            self.month = month;
            self.calls = self.store.counter(self.tenant.id, &format!("{CALLS}{}", self.month))?;
        }
        if let Some(limit) = self.tenant.effective_monthly_calls() {
            if self.calls >= limit {
                return Err(EngineError::QuotaExceeded { retry_after: secs_to_next_month(now) });
            }
        }
        self.calls += 1;
        self.store.set_counter(self.tenant.id, &format!("{CALLS}{}", self.month), self.calls)?;
        Ok(())
    }

    fn persist_last_used(&mut self) {
        for k in self.keys.values_mut().filter(|k| k.dirty) {
            match self.store.put_key(&k.rec) {
                Ok(()) => k.dirty = false,
                Err(e) => tracing::warn!(error = %e, key_id = %k.rec.id, "cannot persist last_used_at"),
            }
        }
    }

    fn key_mut(&mut self, id: Ulid) -> Result<&mut KeyState, EngineError> {
        self.keys.get_mut(&id).ok_or(EngineError::NotFound("API key"))
    }

    /// Writes a key, then answers once it is on disk.
    fn write_key(
        &self,
        rec: &ApiKeyRecord,
    ) -> Result<impl std::future::Future<Output = Result<(), EngineError>> + use<>, EngineError> {
        self.store.put_key(rec)?;
        let commit = self.store.commit();
        Ok(async move { commit.await.map_err(EngineError::from) })
    }
}

impl Actor for TenantActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.run_interval(PERSIST_EVERY, |act, _| act.persist_last_used());
    }

    fn stopping(&mut self, _: &mut Self::Context) -> Running {
        self.persist_last_used();
        Running::Stop
    }
}

/// Authenticate a request and charge it to the key's rate and the tenant's month.
#[derive(Message)]
#[rtype(result = "(Option<RateInfo>, Result<Admitted, EngineError>)")]
pub(crate) struct Admit {
    pub key_id: Ulid,
    pub hash: String,
}

impl Handler<Admit> for TenantActor {
    type Result = MessageResult<Admit>;

    fn handle(&mut self, msg: Admit, _: &mut Self::Context) -> Self::Result {
        MessageResult(self.admit(msg.key_id, &msg.hash))
    }
}

impl TenantActor {
    /// Auth → rate limit → monthly quota (DESIGN "check order"), charging the call.
    pub(crate) fn admit(
        &mut self,
        key_id: Ulid,
        hash: &str,
    ) -> (Option<RateInfo>, Result<Admitted, EngineError>) {
        let now = self.clock.now();
        let tenant = &self.tenant;
        let Some(key) = self.keys.get_mut(&key_id) else {
            return (None, Err(EngineError::InvalidApiKey));
        };
        if !credentials::hashes_match(&key.rec.hash, hash) {
            return (None, Err(EngineError::InvalidApiKey));
        }
        if !key.rec.active {
            return (None, Err(EngineError::KeyInactive));
        }
        if tenant.status == pigeon_storage::model::TenantStatus::Suspended {
            return (None, Err(EngineError::TenantSuspended));
        }
        if tenant.trial_expired(now) {
            return (None, Err(EngineError::TrialExpired));
        }
        let environment = key.rec.environment;
        let rate = match &key.limiter {
            None => None,
            Some(l) => match l.check() {
                Ok(snap) => {
                    let limit = snap.quota().burst_size().get();
                    let remaining = snap.remaining_burst_capacity();
                    let refill = snap.quota().replenish_interval() * (limit - remaining);
                    Some(RateInfo { limit, remaining, reset: refill.as_secs_f64().ceil() as u64 })
                }
                Err(not_until) => {
                    let wait = not_until.wait_time_from(self.clock.monotonic());
                    let quota = not_until.quota();
                    let limit = quota.burst_size().get();
                    let reset = wait + quota.replenish_interval() * (limit - 1);
                    let retry_after = ceil_secs(chrono::Duration::from_std(wait).unwrap_or_default());
                    let info = RateInfo { limit, remaining: 0, reset: reset.as_secs_f64().ceil() as u64 };
                    return (Some(info), Err(EngineError::RateLimited { retry_after }));
                }
            },
        };
        key.rec.last_used_at = Some(now);
        key.dirty = true;
        if environment == Environment::Live {
            if let Err(e) = self.count_call(now) {
                return (rate, Err(e));
            }
        }
        (rate, Ok(Admitted { tenant_id: self.tenant.id, key_id, environment }))
    }
}

/// Create a key for the tenant.
#[derive(Message)]
#[rtype(result = "Result<NewKey, EngineError>")]
pub(crate) struct CreateKey {
    pub name: String,
    pub rate_limit: Option<u64>,
    pub environment: Environment,
}

impl Handler<CreateKey> for TenantActor {
    type Result = ResponseFuture<Result<NewKey, EngineError>>;

    fn handle(&mut self, msg: CreateKey, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let plan = self.tenant.plan;
            let rate_limit = match (msg.rate_limit, plan.rate_ceiling()) {
                (None, _) => None,
                (Some(r), Some(ceiling)) if r < 1 || r > u64::from(ceiling) => {
                    return Err(EngineError::Validation(format!(
                        "rate_limit: must be a whole number from 1 to {ceiling}, the {} plan's ceiling",
                        plan_name(plan)
                    )))
                }
                (Some(r), _) if r < 1 || r > u64::from(u32::MAX) => {
                    return Err(EngineError::Validation(format!(
                        "rate_limit: must be a whole number from 1 to {}",
                        u32::MAX
                    )))
                }
                (Some(r), _) => Some(r as u32),
            };
            if self.keys.len() >= MAX_ACTIVE_KEYS {
                return Err(EngineError::Validation(format!(
                    "the tenant already has {MAX_ACTIVE_KEYS} active keys, the most allowed; revoke one first"
                )));
            }
            let (rec, key) = new_key(self.tenant.id, msg.name, msg.environment, rate_limit, self.clock.now());
            let wait = self.write_key(&rec)?;
            let limiter = limiter(&rec, plan, &self.clock);
            let effective = rec.effective_rate_limit(plan);
            self.keys.insert(rec.id, KeyState { rec: rec.clone(), limiter, dirty: false });
            Ok((wait, NewKey { record: rec, key, effective_rate_limit: effective }))
        })();
        Box::pin(async move {
            let (wait, key) = res?;
            wait.await?;
            Ok(key)
        })
    }
}

/// Every unrevoked key with its rate in force, oldest first.
#[derive(Message)]
#[rtype(result = "Vec<(ApiKeyRecord, Option<u32>)>")]
pub(crate) struct ListKeys;

impl Handler<ListKeys> for TenantActor {
    type Result = MessageResult<ListKeys>;

    fn handle(&mut self, _: ListKeys, _: &mut Self::Context) -> Self::Result {
        let plan = self.tenant.plan;
        let mut v: Vec<_> =
            self.keys.values().map(|k| (k.rec.clone(), k.rec.effective_rate_limit(plan))).collect();
        v.sort_by_key(|(r, _)| r.id);
        MessageResult(v)
    }
}

/// Revoke a key for good.
#[derive(Message)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct RevokeKey(pub Ulid);

impl Handler<RevokeKey> for TenantActor {
    type Result = ResponseFuture<Result<(), EngineError>>;

    fn handle(&mut self, msg: RevokeKey, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        let res = self.key_mut(msg.0).map(|k| k.rec.clone()).and_then(|mut rec| {
            rec.revoked_at = Some(now);
            let wait = self.write_key(&rec)?;
            self.keys.remove(&msg.0);
            Ok(wait)
        });
        Box::pin(async move { res?.await })
    }
}

/// The operator's switch: deactivate (403 `KEY_INACTIVE`) or reactivate a key.
#[derive(Message)]
#[rtype(result = "Result<ApiKeyRecord, EngineError>")]
pub(crate) struct SetKeyActive {
    pub key_id: Ulid,
    pub active: bool,
}

impl Handler<SetKeyActive> for TenantActor {
    type Result = ResponseFuture<Result<ApiKeyRecord, EngineError>>;

    fn handle(&mut self, msg: SetKeyActive, _: &mut Self::Context) -> Self::Result {
        let res = self.key_mut(msg.key_id).map(|k| k.rec.clone()).and_then(|mut rec| {
            rec.active = msg.active;
            let wait = self.write_key(&rec)?;
            let k = self.key_mut(msg.key_id)?;
            k.rec.active = msg.active;
            Ok((wait, rec))
        });
        Box::pin(async move {
            let (wait, rec) = res?;
            wait.await?;
            Ok(rec)
        })
    }
}

/// Apply the operator's changes to the tenant.
#[derive(Message)]
#[rtype(result = "Result<TenantRecord, EngineError>")]
pub(crate) struct Patch(pub TenantPatch);

impl Handler<Patch> for TenantActor {
    type Result = ResponseFuture<Result<TenantRecord, EngineError>>;

    fn handle(&mut self, Patch(p): Patch, _: &mut Self::Context) -> Self::Result {
        let mut t = self.tenant.clone();
        let old_plan = t.plan;
        p.apply_to(&mut t);
        let res = self.store.put_tenant(&t).map_err(EngineError::from).map(|()| self.store.commit());
        if res.is_ok() {
            if t.plan != old_plan {
                for k in self.keys.values_mut() {
                    k.limiter = limiter(&k.rec, t.plan, &self.clock);
                }
            }
            self.tenant = t.clone();
        }
        Box::pin(async move {
            res?.await?;
            Ok(t)
        })
    }
}

/// Write back pending `last_used_at` values (shutdown).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Persist;

impl Handler<Persist> for TenantActor {
    type Result = ();
    fn handle(&mut self, _: Persist, _: &mut Self::Context) {
        self.persist_last_used();
    }
}

/// Answers with `v` once the commit that makes its write durable resolves: the tail of every
/// handler that writes.
pub(crate) fn after_commit<T: Send + 'static>(
    res: Result<
        (T, impl std::future::Future<Output = Result<(), pigeon_storage::StoreError>> + Send + 'static),
        EngineError,
    >,
) -> ResponseFuture<Result<T, EngineError>> {
    Box::pin(async move {
        let (v, commit) = res?;
        commit.await?;
        Ok(v)
    })
}

/// The plan's name as the API spells it.
pub(crate) fn plan_name(p: Plan) -> &'static str {
    match p {
        Plan::Trial => "trial",
        Plan::Starter => "starter",
        Plan::Growth => "growth",
        Plan::Scale => "scale",
    }
}

/// A new key record and the secret to show once.
pub(crate) fn new_key(
    tenant_id: Ulid,
    name: String,
    environment: Environment,
    rate_limit: Option<u32>,
    now: DateTime<Utc>,
) -> (ApiKeyRecord, String) {
    let key = credentials::generate(environment.prefix());
    let rec = ApiKeyRecord {
        id: pigeon_storage::model::new_id(),
        tenant_id,
        name,
        environment,
        hash: credentials::hash(&key),
        hint: credentials::hint(&key),
        rate_limit,
        active: true,
        revoked_at: None,
        last_used_at: None,
        created_at: now,
    };
    (rec, key)
}
