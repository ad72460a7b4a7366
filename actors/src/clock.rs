//! Injectable time. Production reads the system clock; tests hold a [`ManualClock`] and move it,
//! so rate limits, trial expiry and month rollover are tested without sleeping.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

/// A source of wall time (for records and calendars) and monotonic time (for rate limiters).
pub trait Clock: Send + Sync + 'static {
    /// Wall time, millisecond precision.
    fn now(&self) -> DateTime<Utc>;
    /// Time since an arbitrary fixed point; never goes back.
    fn monotonic(&self) -> Duration;
}

/// The clock every actor and handler shares.
pub type SharedClock = Arc<dyn Clock>;

/// The real clock.
#[derive(Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A system clock, shared.
    pub fn shared() -> SharedClock {
        Arc::new(SystemClock { start: Instant::now() })
    }
}

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        pigeon_storage::ts::truncate(Utc::now())
    }
    fn monotonic(&self) -> Duration {
        self.start.elapsed()
    }
}

/// A clock that moves only when told to; wall and monotonic time move together.
#[derive(Debug)]
pub struct ManualClock {
    state: Mutex<(DateTime<Utc>, Duration)>,
}

impl ManualClock {
    /// Starts at `at`.
    pub fn new(at: DateTime<Utc>) -> Arc<Self> {
        Arc::new(Self { state: Mutex::new((pigeon_storage::ts::truncate(at), Duration::ZERO)) })
    }

    /// Moves time forward.
    pub fn advance(&self, by: Duration) {
        let mut s = self.state.lock().unwrap();
        s.0 += chrono::Duration::from_std(by).expect("sane duration");
        s.1 += by;
    }

    /// Jumps the wall clock to `at` (forward or back); the monotonic clock moves forward by the
    /// same amount when going forward and stays when going back.
    pub fn set(&self, at: DateTime<Utc>) {
        let mut s = self.state.lock().unwrap();
        if let Ok(d) = (at - s.0).to_std() {
            s.1 += d;
        }
        s.0 = pigeon_storage::ts::truncate(at);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        self.state.lock().unwrap().0
    }
    fn monotonic(&self) -> Duration {
        self.state.lock().unwrap().1
    }
}

/// Adapts a [`SharedClock`] to governor's clock trait.
#[derive(Clone)]
pub(crate) struct GovernorClock(pub SharedClock);

impl governor::clock::Clock for GovernorClock {
    type Instant = Duration;
    fn now(&self) -> Duration {
        self.0.monotonic()
    }
}

/// Seconds from `now` to the start of the next UTC month (at least 1), for `Retry-After`.
pub fn secs_to_next_month(now: DateTime<Utc>) -> u64 {
    use chrono::{Datelike, NaiveDate};
    let (y, m) = if now.month() == 12 { (now.year() + 1, 1) } else { (now.year(), now.month() + 1) };
    let next = NaiveDate::from_ymd_opt(y, m, 1).expect("valid date").and_hms_opt(0, 0, 0).expect("midnight");
    ceil_secs(next.and_utc() - now)
}

/// Seconds from `now` to the next UTC midnight (at least 1).
pub fn secs_to_next_day(now: DateTime<Utc>) -> u64 {
    let next = (now.date_naive() + chrono::Days::new(1)).and_hms_opt(0, 0, 0).expect("midnight");
    ceil_secs(next.and_utc() - now)
}

/// Whole seconds, rounded up, never below 1: what `Retry-After` needs.
pub fn ceil_secs(d: chrono::Duration) -> u64 {
    let ms = d.num_milliseconds().max(0) as u64;
    ms.div_ceil(1000).max(1)
}

/// Hours since the epoch (UTC): the key of the hourly counts.
pub fn hour_number(now: DateTime<Utc>) -> u64 {
    now.timestamp().div_euclid(3600).max(0) as u64
}

/// `YYYY-MM` of a time: the key of the monthly call counter.
pub fn month_key(now: DateTime<Utc>) -> String {
    now.format("%Y-%m").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn month_and_day_boundaries() {
        assert_eq!(secs_to_next_month(t("2026-12-31T23:59:00Z")), 60);
        assert_eq!(secs_to_next_month(t("2026-02-28T23:59:59.500Z")), 1);
        assert_eq!(secs_to_next_day(t("2026-11-22T23:00:00Z")), 3600);
        assert_eq!(month_key(t("2026-01-05T00:00:00Z")), "2026-01");
    }

    #[test]
    fn manual_clock_moves_both_times() {
        let c = ManualClock::new(t("2026-11-22T00:00:00Z"));
        c.advance(Duration::from_secs(90));
        assert_eq!(c.now(), t("2026-11-22T00:01:30Z"));
        assert_eq!(c.monotonic(), Duration::from_secs(90));
    }
}
