//! Injectable time. Production reads the system clock; tests hold a [`ManualClock`] and move it,
//! so rate limits, trial expiry and month rollover are tested without sleeping. The clocks live in
//! the storage crate, whose ids carry their time; this module adds the calendar arithmetic.

use std::time::Duration;

use chrono::{DateTime, Utc};

pub use pigeon_storage::clock::{Clock, ManualClock, SharedClock, SystemClock};

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
}
