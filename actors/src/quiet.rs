//! Quiet-hours arithmetic, pure: when a send may go out, given the recipient's zone and the
//! tenant's window. The send decision and the scheduler call it; it is unit-tested here.

use chrono::{DateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use pigeon_storage::model::QuietHours;

/// When quiet hours end for a recipient in `zone`, if `at` falls inside them; `None` otherwise.
/// The window runs from `start` (inclusive) to `end` (exclusive), across midnight when
/// `start > end`; the release is the next `end` in local time.
pub fn quiet_until(at: DateTime<Utc>, zone: Tz, q: &QuietHours) -> Option<DateTime<Utc>> {
    if !q.enabled {
        return None;
    }
    let start = NaiveTime::parse_from_str(&q.start, "%H:%M").ok()?;
    let end = NaiveTime::parse_from_str(&q.end, "%H:%M").ok()?;
    let local = at.with_timezone(&zone);
    let t = local.time();
    let quiet = if start < end { t >= start && t < end } else { t >= start || t < end };
    if !quiet {
        return None;
    }
    let mut day = local.date_naive();
    if t >= end {
        day = day.succ_opt()?;
    }
    // A DST gap at `end` (rare): the first valid minute after it.
    (0..=120).find_map(|m| {
        let naive = day.and_time(end) + chrono::Duration::minutes(m);
        zone.from_local_datetime(&naive).earliest().map(|d| d.with_timezone(&Utc))
    })
}

/// Where a send goes: `(release time, notice)`. `None` release: at once. Quiet hours apply to the
/// time it would go out (now, or `send_at`), and push it to their end with `QUIET_HOURS`.
pub fn plan_release(
    now: DateTime<Utc>,
    send_at: Option<DateTime<Utc>>,
    zone: Tz,
    q: &QuietHours,
) -> (Option<DateTime<Utc>>, Option<&'static str>) {
    match (send_at, quiet_until(send_at.unwrap_or(now), zone, q)) {
        (_, Some(end)) => (Some(end), Some("QUIET_HOURS")),
        (Some(at), None) => (Some(at), None),
        (None, None) => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn the_default_window_holds_until_8_local() {
        let q = QuietHours::default();
        let la: Tz = "America/Los_Angeles".parse().unwrap();
        // 23:00 in Los Angeles (PST, UTC-8) → 08:00 next morning local.
        assert_eq!(quiet_until(utc("2026-11-23T07:00:00Z"), la, &q), Some(utc("2026-11-23T16:00:00Z")));
        // 03:00 local → 08:00 the same day.
        assert_eq!(quiet_until(utc("2026-11-23T11:00:00Z"), la, &q), Some(utc("2026-11-23T16:00:00Z")));
        // 20:59 and 08:00 are not quiet; 21:00 is.
        assert_eq!(quiet_until(utc("2026-11-23T04:59:00Z"), la, &q), None);
        assert_eq!(quiet_until(utc("2026-11-23T16:00:00Z"), la, &q), None);
        assert!(quiet_until(utc("2026-11-23T05:00:00Z"), la, &q).is_some());
    }

    #[test]
    fn windows_that_do_not_cross_midnight_and_disabled_ones() {
        let q = QuietHours { enabled: true, start: "12:00".into(), end: "14:00".into(), timezone: None };
        assert_eq!(quiet_until(utc("2026-11-23T13:00:00Z"), Tz::UTC, &q), Some(utc("2026-11-23T14:00:00Z")));
        assert_eq!(quiet_until(utc("2026-11-23T15:00:00Z"), Tz::UTC, &q), None);
        let off = QuietHours { enabled: false, ..QuietHours::default() };
        assert_eq!(quiet_until(utc("2026-11-23T23:00:00Z"), Tz::UTC, &off), None);
    }

    #[test]
    fn scheduled_sends_are_pushed_out_of_quiet_hours() {
        let q = QuietHours::default();
        let now = utc("2026-11-23T12:00:00Z");
        assert_eq!(plan_release(now, None, Tz::UTC, &q), (None, None));
        let at = utc("2026-11-23T15:00:00Z");
        assert_eq!(plan_release(now, Some(at), Tz::UTC, &q), (Some(at), None));
        let late = utc("2026-11-23T22:00:00Z");
        assert_eq!(
            plan_release(now, Some(late), Tz::UTC, &q),
            (Some(utc("2026-11-24T08:00:00Z")), Some("QUIET_HOURS"))
        );
    }
}
