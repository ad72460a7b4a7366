//! Failed sign-ins by client address (DESIGN "Security defaults"): the dashboard's form and
//! operator bearers on `/admin/v1/` share one count per address. After [`FAILURES_ALLOWED`]
//! failures within [`WINDOW`], every attempt from that address is refused, right or wrong (a
//! throttle that let the right value through would tell a guesser when it is right), until the
//! window that began with the first of them has passed. Tenant API keys on `/v1/` are 32 random
//! characters and are not counted here. In memory: a restart forgets the counts, which costs a
//! guesser a restart of the node per ten guesses.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;

use chrono::{DateTime, Duration, Utc};

use super::Engine;
use crate::EngineError;

/// Failures an address may make within [`WINDOW`].
pub const FAILURES_ALLOWED: usize = 10;

/// The window failures are counted in.
pub const WINDOW: Duration = Duration::minutes(1);

/// Addresses tracked at once. Past it (a guesser with a very large pool of addresses), the
/// newest share one count, so memory stays bounded and the guessing stays throttled.
const MAX_ADDRESSES: usize = 100_000;

/// Whose failures are counted together: an IPv4 address, or an IPv6 /64 (one host usually
/// holds a whole /64, so counting its addresses apart would count nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Source {
    V4(u32),
    V6(u64),
    /// Unknown address, or past [`MAX_ADDRESSES`].
    Shared,
}

impl Source {
    fn of(ip: Option<IpAddr>) -> Self {
        match ip {
            Some(IpAddr::V4(v4)) => Source::V4(v4.into()),
            Some(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
                Some(v4) => Source::V4(v4.into()),
                None => Source::V6((u128::from(v6) >> 64) as u64),
            },
            None => Source::Shared,
        }
    }
}

/// The counts.
#[derive(Debug, Default)]
pub(crate) struct SignInGuard {
    failures: Mutex<HashMap<Source, VecDeque<DateTime<Utc>>>>,
}

impl SignInGuard {
    /// `Err(seconds)` to wait while `ip` is throttled at `now`.
    fn check(&self, ip: Option<IpAddr>, now: DateTime<Utc>) -> Result<(), u64> {
        let mut all = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let Some(times) = all.get_mut(&Source::of(ip)) else { return Ok(()) };
        times.retain(|t| now - *t < WINDOW);
        if times.len() < FAILURES_ALLOWED {
            return Ok(());
        }
        let first = times.front().copied().unwrap_or(now);
        let left = (first + WINDOW - now).num_milliseconds().max(0) as u64;
        Err(left.div_ceil(1000).max(1))
    }

    /// Counts a failure from `ip` at `now`.
    fn failed(&self, ip: Option<IpAddr>, now: DateTime<Utc>) {
        let mut all = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let mut source = Source::of(ip);
        if !all.contains_key(&source) && all.len() >= MAX_ADDRESSES {
            all.retain(|_, times| times.back().is_some_and(|t| now - *t < WINDOW));
            if all.len() >= MAX_ADDRESSES {
                source = Source::Shared;
            }
        }
        let times = all.entry(source).or_default();
        times.retain(|t| now - *t < WINDOW);
        if times.len() < FAILURES_ALLOWED {
            times.push_back(now);
        }
    }
}

impl Engine {
    /// Checks an operator bearer from `ip`: throttled → `SignInThrottled`, wrong → `InvalidApiKey`
    /// (and counted), right → `Ok`.
    pub fn operator_from(&self, token: &str, ip: Option<IpAddr>) -> Result<(), EngineError> {
        let now = self.inner.clock.now();
        let guard = &self.inner.sign_ins;
        guard.check(ip, now).map_err(|retry_after| EngineError::SignInThrottled { retry_after })?;
        if self.is_admin(token) {
            return Ok(());
        }
        guard.failed(ip, now);
        Err(EngineError::InvalidApiKey)
    }

    /// `SignInThrottled` while `ip` may not try to sign in.
    pub fn sign_in_allowed(&self, ip: Option<IpAddr>) -> Result<(), EngineError> {
        self.inner
            .sign_ins
            .check(ip, self.inner.clock.now())
            .map_err(|retry_after| EngineError::SignInThrottled { retry_after })
    }

    /// [`Engine::sign_in`] from `ip`, throttled like [`Engine::operator_from`]: a value that
    /// is no credential counts as a failure; a real one refused for its state (a deactivated
    /// key, a suspended tenant) or an outage does not.
    pub async fn sign_in_from(
        &self,
        value: &str,
        ip: Option<IpAddr>,
    ) -> Result<(String, super::Session), EngineError> {
        self.sign_in_allowed(ip)?;
        let res = self.sign_in(value).await;
        if let Err(EngineError::InvalidApiKey | EngineError::InvalidToken(_)) = &res {
            self.inner.sign_ins.failed(ip, self.inner.clock.now());
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_failures_a_minute_then_refused_until_the_minute_is_over() {
        let g = SignInGuard::default();
        let t0: DateTime<Utc> = "2026-11-22T12:00:00Z".parse().unwrap();
        let me = Some("192.0.2.7".parse().unwrap());
        for i in 0..FAILURES_ALLOWED as i64 {
            assert_eq!(g.check(me, t0 + Duration::seconds(i)), Ok(()), "attempt {i}");
            g.failed(me, t0 + Duration::seconds(i));
        }
        assert_eq!(g.check(me, t0 + Duration::seconds(10)), Err(50));
        assert_eq!(g.check(me, t0 + Duration::milliseconds(59_500)), Err(1));
        // Another address, and the same host's other IPv6 addresses, count apart / together.
        assert_eq!(g.check(Some("192.0.2.8".parse().unwrap()), t0), Ok(()));
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        for i in 0..FAILURES_ALLOWED as i64 {
            g.failed(Some(a), t0 + Duration::seconds(i));
        }
        assert!(g.check(Some("2001:db8:1:2::ffff".parse().unwrap()), t0 + Duration::seconds(11)).is_err());
        assert_eq!(g.check(Some("2001:db8:1:3::1".parse().unwrap()), t0), Ok(()));
        // The minute that began with the first failure has passed: the oldest one falls out.
        assert_eq!(g.check(me, t0 + Duration::seconds(60)), Ok(()));
    }
}
