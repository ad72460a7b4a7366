//! A tenant's API keys: creation (the secret shown once), listing, revocation and the
//! operator's switch.

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{ApiKeyRecord, Environment, Plan, Scopes};
use ulid::Ulid;

use super::{limiter, KeyState, TenantActor};
use crate::durable::after_commit;
use crate::error::Missing;
use crate::{credentials, EngineError};

/// A tenant may hold at most this many unrevoked keys.
pub(crate) const MAX_ACTIVE_KEYS: usize = 50;

impl TenantActor {
    fn key_mut(&mut self, id: Ulid) -> Result<&mut KeyState, EngineError> {
        self.keys.get_mut(&id).ok_or(EngineError::NotFound(Missing::ApiKey))
    }
}

/// Create a key for the tenant.
#[derive(Message, Clone)]
#[rtype(result = "Result<NewKey, EngineError>")]
pub(crate) struct CreateKey {
    pub name: String,
    pub rate_limit: Option<u64>,
    pub environment: Environment,
    pub scopes: Scopes,
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
                return Err(EngineError::LimitReached(format!(
                    "keys: the account holds {MAX_ACTIVE_KEYS} unrevoked keys, the most allowed; revoke one first"
                )));
            }
            let (rec, key) = new_key(
                self.store.new_id(),
                self.tenant.id,
                msg.name,
                msg.environment,
                rate_limit,
                msg.scopes,
                self.clock.now(),
            );
            self.store.keys().put(&rec)?;
            let limiter = limiter(&rec, plan, &self.clock);
            let effective = rec.effective_rate_limit(plan);
            self.keys.insert(KeyState { rec: rec.clone(), limiter, dirty: false });
            Ok(NewKey { record: rec, key, effective_rate_limit: effective })
        })();
        after_commit(&self.store, res)
    }
}

/// Every unrevoked key with its rate in force, oldest first.
#[derive(Message, Clone)]
#[rtype(result = "Vec<(ApiKeyRecord, Option<u32>)>")]
pub(crate) struct ListKeys;

impl Handler<ListKeys> for TenantActor {
    type Result = MessageResult<ListKeys>;

    fn handle(&mut self, _: ListKeys, _: &mut Self::Context) -> Self::Result {
        let plan = self.tenant.plan;
        let mut v: Vec<_> =
            self.keys.iter().map(|k| (k.rec.clone(), k.rec.effective_rate_limit(plan))).collect();
        v.sort_by_key(|(r, _)| r.id);
        MessageResult(v)
    }
}

/// Revoke a key for good.
#[derive(Message, Clone)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct RevokeKey(pub Ulid);

impl Handler<RevokeKey> for TenantActor {
    type Result = ResponseFuture<Result<(), EngineError>>;

    fn handle(&mut self, msg: RevokeKey, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        let res = self.key_mut(msg.0).map(|k| k.rec.clone()).and_then(|mut rec| {
            rec.revoked_at = Some(now);
            self.store.keys().put(&rec)?;
            self.keys.remove(&msg.0);
            Ok(())
        });
        after_commit(&self.store, res)
    }
}

/// The operator's switch: deactivate (403 `KEY_INACTIVE`) or reactivate a key.
#[derive(Message, Clone)]
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
            self.store.keys().put(&rec)?;
            let k = self.key_mut(msg.key_id)?;
            k.rec.active = msg.active;
            Ok(rec)
        });
        after_commit(&self.store, res)
    }
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
    id: Ulid,
    tenant_id: Ulid,
    name: String,
    environment: Environment,
    rate_limit: Option<u32>,
    scopes: Scopes,
    now: DateTime<Utc>,
) -> (ApiKeyRecord, String) {
    let key = credentials::generate(environment.prefix());
    let rec = ApiKeyRecord {
        id,
        tenant_id,
        name,
        environment,
        hash: credentials::hash(&key),
        hint: credentials::hint(&key),
        rate_limit,
        scopes,
        active: true,
        revoked_at: None,
        last_used_at: None,
        created_at: now,
    };
    (rec, key)
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
