//! Injectable time, and the ids that carry it. Production reads the system clock; tests hold a
//! [`ManualClock`] and move it. The store keeps the clock it was opened with because record ids
//! are ULIDs whose time is a record's age: retention, the work lists and the recovery mark judge
//! age by it, so ids must come from the same clock as every other time the engine reads. (When
//! ids followed the system clock and the rest a test's clock, a test started late in the UTC day
//! crossed midnight on one clock and not on the other.)

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use chrono::{DateTime, Utc};
use ulid::Ulid;

/// A source of wall time (for records and calendars) and monotonic time (for rate limiters).
pub trait Clock: Send + Sync + 'static {
    /// Wall time, millisecond precision.
    fn now(&self) -> DateTime<Utc>;
    /// Time since an arbitrary fixed point; never goes back.
    fn monotonic(&self) -> Duration;
}

/// The clock every actor, handler and the store share.
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
        crate::ts::truncate(Utc::now())
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
        Arc::new(Self { state: Mutex::new((crate::ts::truncate(at), Duration::ZERO)) })
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
        s.0 = crate::ts::truncate(at);
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

/// Milliseconds since the epoch of a clock's wall time (0 before the epoch).
pub(crate) fn now_ms(clock: &dyn Clock) -> u64 {
    clock.now().timestamp_millis().max(0) as u64
}

/// Makes ids on a clock: ULIDs strictly increasing within one store, so ids sort in creation
/// order (plain ULIDs made in the same millisecond would sort at random), and their time is the
/// clock's. A clock that stands still or steps back keeps the last time and counts up.
pub(crate) struct Ids {
    clock: SharedClock,
    last: Mutex<ulid::Generator>,
}

impl Ids {
    pub(crate) fn new(clock: SharedClock) -> Self {
        Self { clock, last: Mutex::new(ulid::Generator::new()) }
    }

    pub(crate) fn next(&self) -> Ulid {
        let at = SystemTime::from(self.clock.now());
        let mut g = self.last.lock().unwrap_or_else(|e| e.into_inner());
        match g.generate_from_datetime(at) {
            Ok(id) => id,
            Err(overflow) => overflow.commit_overflow_increment(),
        }
    }

    pub(crate) fn clock(&self) -> &SharedClock {
        &self.clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn manual_clock_moves_both_times() {
        let c = ManualClock::new(t("2026-11-22T00:00:00Z"));
        c.advance(Duration::from_secs(90));
        assert_eq!(c.now(), t("2026-11-22T00:01:30Z"));
        assert_eq!(c.monotonic(), Duration::from_secs(90));
    }

    #[test]
    fn ids_carry_the_clock_time_and_keep_increasing_when_it_stands_or_steps_back() {
        let c = ManualClock::new(t("2030-06-15T12:00:00Z"));
        let ids = Ids::new(c.clone());
        let a = ids.next();
        let b = ids.next();
        assert_eq!(a.timestamp_ms(), t("2030-06-15T12:00:00Z").timestamp_millis() as u64);
        assert!(b > a, "same millisecond: still increasing");
        c.advance(Duration::from_secs(3600));
        let later = ids.next();
        assert_eq!(later.timestamp_ms(), t("2030-06-15T13:00:00Z").timestamp_millis() as u64);
        c.set(t("2030-06-15T11:00:00Z"));
        let back = ids.next();
        assert!(back > later, "a step back never makes an id sort before an older one");
    }
}
