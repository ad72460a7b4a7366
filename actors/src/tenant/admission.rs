//! Admission of a call: the key, the tenant's status and trial, the key's rate, then the
//! tenant's month (DESIGN "check order"), charging the call.

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{ApiKeyRecord, Environment, Plan};
use ulid::Ulid;

use super::TenantActor;
use crate::clock::SharedClock;
use crate::{credentials, EngineError};

use std::num::NonZeroU32;

use governor::middleware::StateInformationMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

use crate::clock::{ceil_secs, month_key, secs_to_next_month, GovernorClock};

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

pub(super) type Limiter = RateLimiter<NotKeyed, InMemoryState, GovernorClock, StateInformationMiddleware>;
/// Counter name prefix of the monthly call count.
pub(crate) const CALLS: &str = "calls:";

pub(super) fn limiter(rec: &ApiKeyRecord, plan: Plan, clock: &SharedClock) -> Option<Limiter> {
    let per_minute = NonZeroU32::new(rec.effective_rate_limit(plan)?)?;
    Some(
        RateLimiter::direct_with_clock(Quota::per_minute(per_minute), GovernorClock(clock.clone()))
            .with_middleware::<StateInformationMiddleware>(),
    )
}

impl TenantActor {
    /// Counts one live call against the month, refusing when the month is used up.
    pub(super) fn count_call(&mut self, now: DateTime<Utc>) -> Result<(), EngineError> {
        let month = month_key(now);
        if month != self.month {
            self.month = month;
            self.calls = self.store.tenants().counter(self.tenant.id, &format!("{CALLS}{}", self.month))?;
        }
        if let Some(limit) = self.tenant.effective_monthly_calls() {
            if self.calls >= limit {
                return Err(EngineError::QuotaExceeded { retry_after: secs_to_next_month(now) });
            }
        }
        self.calls += 1;
        self.store.tenants().set_counter(self.tenant.id, &format!("{CALLS}{}", self.month), self.calls);
        Ok(())
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
