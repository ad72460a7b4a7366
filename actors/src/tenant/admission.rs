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
    /// What the key may do (all three for an identity-provider token).
    pub scopes: pigeon_storage::model::Scopes,
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

/// Who is calling: an API key, found by its hash, or an identity provider's subject (a verified
/// JWT; see `identity/`), which acts with a live key's rights at the plan's default rate.
#[derive(Debug, Clone)]
pub enum Credential {
    /// An API key.
    Key {
        /// The key's id.
        key_id: Ulid,
        /// SHA-256 of the presented key, compared in constant time with the stored one.
        hash: String,
    },
    /// The `sub` of a verified identity-provider token.
    Subject(String),
}

/// Authenticate a request and charge it to the caller's rate and the tenant's month.
#[derive(Message, Clone)]
#[rtype(result = "(Option<RateInfo>, Result<Admitted, EngineError>)")]
pub(crate) struct Admit {
    pub who: Credential,
}

impl Handler<Admit> for TenantActor {
    type Result = MessageResult<Admit>;

    fn handle(&mut self, msg: Admit, _: &mut Self::Context) -> Self::Result {
        MessageResult(self.admit(&msg.who))
    }
}

/// A rate check: the state for the headers, or the refusal with it.
fn check(
    limiter: Option<&Limiter>,
    clock: &SharedClock,
) -> Result<Option<RateInfo>, (RateInfo, EngineError)> {
    let Some(l) = limiter else { return Ok(None) };
    match l.check() {
        Ok(snap) => {
            let limit = snap.quota().burst_size().get();
            let remaining = snap.remaining_burst_capacity();
            let refill = snap.quota().replenish_interval() * (limit - remaining);
            Ok(Some(RateInfo { limit, remaining, reset: refill.as_secs_f64().ceil() as u64 }))
        }
        Err(not_until) => {
            let wait = not_until.wait_time_from(clock.monotonic());
            let quota = not_until.quota();
            let limit = quota.burst_size().get();
            let reset = wait + quota.replenish_interval() * (limit - 1);
            let retry_after = ceil_secs(chrono::Duration::from_std(wait).unwrap_or_default());
            let info = RateInfo { limit, remaining: 0, reset: reset.as_secs_f64().ceil() as u64 };
            Err((info, EngineError::RateLimited { retry_after }))
        }
    }
}

/// Most identity-provider subjects whose rate a tenant actor tracks at once.
const MAX_SUBJECTS: usize = 10_000;

/// The limiter of an identity-provider subject: the plan's default rate.
pub(super) fn subject_limiter(plan: Plan, clock: &SharedClock) -> Option<Limiter> {
    let per_minute = NonZeroU32::new(plan.rate_ceiling()?)?;
    Some(
        RateLimiter::direct_with_clock(Quota::per_minute(per_minute), GovernorClock(clock.clone()))
            .with_middleware::<StateInformationMiddleware>(),
    )
}

impl TenantActor {
    /// Auth → rate limit → monthly quota (DESIGN "check order"), charging the call.
    /// Whether `who` acts in live or test mode (an identity's subject: live).
    pub(crate) fn environment_of(&self, who: &Credential) -> Environment {
        match who {
            Credential::Key { key_id, .. } => {
                self.keys.get(key_id).map_or(Environment::Live, |k| k.rec.environment)
            }
            Credential::Subject(_) => Environment::Live,
        }
    }

    pub(crate) fn admit(&mut self, who: &Credential) -> (Option<RateInfo>, Result<Admitted, EngineError>) {
        let now = self.clock.now();
        let (key_id, environment) = match who {
            Credential::Key { key_id, hash } => {
                let Some(key) = self.keys.get(key_id) else {
                    return (None, Err(EngineError::InvalidApiKey));
                };
                if !credentials::hashes_match(&key.rec.hash, hash) {
                    return (None, Err(EngineError::InvalidApiKey));
                }
                if !key.rec.active {
                    return (None, Err(EngineError::KeyInactive));
                }
                (*key_id, key.rec.environment)
            }
            Credential::Subject(_) => (Ulid::nil(), Environment::Live),
        };
        if self.tenant.status == pigeon_storage::model::TenantStatus::Suspended {
            return (None, Err(EngineError::TenantSuspended));
        }
        if self.tenant.trial_expired(now) {
            return (None, Err(EngineError::TrialExpired));
        }
        self.active(now);
        let mut scopes = pigeon_storage::model::Scopes::ALL;
        let checked = match who {
            Credential::Key { key_id, .. } => {
                let key = self.keys.get_mut(key_id).expect("checked above");
                scopes = key.rec.scopes;
                key.rec.last_used_at = Some(now);
                key.dirty = true;
                check(key.limiter.as_ref(), &self.clock)
            }
            Credential::Subject(sub) => {
                if self.subjects.len() >= MAX_SUBJECTS && !self.subjects.contains_key(sub) {
                    // Only verified tokens get here, so this takes a provider with that many
                    // active users of one tenant in memory at once; they start a fresh minute.
                    self.subjects.clear();
                }
                let (plan, clock) = (self.tenant.plan, &self.clock);
                let limiter =
                    self.subjects.entry(sub.clone()).or_insert_with(|| subject_limiter(plan, clock));
                check(limiter.as_ref(), &self.clock)
            }
        };
        let rate = match checked {
            Ok(rate) => rate,
            Err((info, e)) => {
                self.rate_checked(now, info.reset);
                return (Some(info), Err(e));
            }
        };
        if let Some(info) = rate {
            self.rate_checked(now, info.reset);
        }
        if environment == Environment::Live {
            if let Err(e) = self.count_call(now) {
                return (rate, Err(e));
            }
        }
        (rate, Ok(Admitted { tenant_id: self.tenant.id, key_id, environment, scopes }))
    }
}
