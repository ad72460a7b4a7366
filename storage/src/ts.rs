//! Timestamps as the API shows them: RFC 3339, UTC, milliseconds (`2026-11-22T06:22:00.000Z`).
//! Records store the same text so what is on disk reads like what the API answers.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serializer};

/// Formats a time the one way pigeon shows times.
pub fn format(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Drops sub-millisecond precision, so a time reads back from disk exactly as it was written.
pub fn truncate(t: DateTime<Utc>) -> DateTime<Utc> {
    use chrono::SubsecRound;
    t.trunc_subsecs(3)
}

/// Serde `with` helper for `DateTime<Utc>`.
pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format(t))
}

/// Serde `with` helper for `DateTime<Utc>`; accepts any RFC 3339 offset and converts to UTC.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
    let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
    DateTime::parse_from_rfc3339(&s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| serde::de::Error::custom(format_args!("not an RFC 3339 time ({e})")))
}

/// The same for `Option<DateTime<Utc>>` (null when absent).
pub mod option {
    use super::*;

    /// Serde `with` helper.
    pub fn serialize<S: Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => super::serialize(t, s),
            None => s.serialize_none(),
        }
    }

    /// Serde `with` helper.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        #[derive(Deserialize)]
        struct W(#[serde(with = "super")] DateTime<Utc>);
        Ok(Option::<W>::deserialize(d)?.map(|w| w.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millis_and_z() {
        let t = DateTime::parse_from_rfc3339("2026-11-22T07:08:09.123456+01:00").unwrap();
        assert_eq!(format(&t.with_timezone(&Utc)), "2026-11-22T06:08:09.123Z");
    }
}
