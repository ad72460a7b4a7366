//! A recipient's time zone, for quiet hours: the contact's own zone, else one told from the
//! number, else the tenant's fallback (UTC unless set). The number → zone table is generated from
//! libphonenumber's time-zone data by `actors/zones/generate.py` (`zones/prefixes.txt`, checked
//! in; run it again to follow libphonenumber): a number takes the zone of the longest prefix of its
//! digits the table has. Where libphonenumber names several zones for a prefix, the table holds the
//! one whose 08:00 comes last, so quiet hours end late rather than early for a number it cannot
//! place more closely (a `+7` it does not know is held as in Bucharest, the westernmost `+7` zone).

use std::collections::HashMap;
use std::sync::LazyLock;

use chrono_tz::Tz;

/// The generated table: `PREFIX ZONE` lines.
const TABLE: &str = include_str!("zones/prefixes.txt");

/// The table, read once.
static PREFIXES: LazyLock<(HashMap<&'static str, Tz>, usize)> = LazyLock::new(|| {
    let map: HashMap<&'static str, Tz> = TABLE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (prefix, zone) = l.split_once(' ')?;
            Some((prefix, zone.parse().ok()?))
        })
        .collect();
    let longest = map.keys().map(|p| p.len()).max().unwrap_or(0);
    (map, longest)
});

/// The zone a number suggests, if the table knows its prefix. `number` is E.164.
pub fn zone_of_number(number: &str) -> Option<Tz> {
    let digits = number.strip_prefix('+')?;
    let (map, longest) = &*PREFIXES;
    (1..=digits.len().min(*longest)).rev().find_map(|n| map.get(digits.get(..n)?).copied())
}

/// The recipient's zone: the contact's, else the number's, else `fallback`.
pub fn recipient_zone(contact_zone: Option<&str>, number: &str, fallback: Tz) -> Tz {
    contact_zone.and_then(|z| z.parse().ok()).or_else(|| zone_of_number(number)).unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn z(n: &str) -> Option<String> {
        zone_of_number(n).map(|t| t.name().to_owned())
    }

    #[test]
    fn every_zone_in_the_table_exists() {
        let lines: Vec<&str> = TABLE.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(lines.len() > 3000, "{} lines", lines.len());
        for l in &lines {
            let (prefix, zone) = l.split_once(' ').unwrap();
            assert!(prefix.bytes().all(|b| b.is_ascii_digit()), "{l}");
            assert!(zone.parse::<Tz>().is_ok(), "{l}");
        }
        assert_eq!(PREFIXES.0.len(), lines.len());
    }

    #[test]
    fn countries_with_several_zones_are_told_apart() {
        assert_eq!(z("+61892345678").as_deref(), Some("Australia/Perth")); // Perth, 08 9…
        assert_eq!(z("+61212345678").as_deref(), Some("Australia/Sydney"));
        assert_eq!(z("+74951234567").as_deref(), Some("Europe/Moscow"));
        assert_eq!(z("+74232123456").as_deref(), Some("Asia/Vladivostok"));
        assert_eq!(z("+5511912345678").as_deref(), Some("America/Sao_Paulo"));
        assert_eq!(z("+5592912345678").as_deref(), Some("America/Manaus"));
        assert_eq!(z("+12125550100").as_deref(), Some("America/New_York")); // NANP by area code
        assert_eq!(z("+14155550100").as_deref(), Some("America/Los_Angeles"));
        assert_eq!(z("+13125550100").as_deref(), Some("America/Chicago"));
        assert_eq!(z("+18085550100").as_deref(), Some("Pacific/Honolulu"));
        assert_eq!(z("+16045550100").as_deref(), Some("America/Vancouver"));
    }

    #[test]
    fn a_prefix_spanning_zones_takes_the_one_whose_morning_comes_last() {
        // +61 8 7…: Adelaide or Perth; Perth's morning comes later.
        assert_eq!(z("+61871234567").as_deref(), Some("Australia/Perth"));
        // Placed no closer than the whole country: the zone of most of its numbers, not the
        // westernmost island's (Cocos, Pago Pago, the Azores, the Canaries).
        assert_eq!(z("+61812345678").as_deref(), Some("Australia/Sydney"));
        assert_eq!(z("+15555550100").as_deref(), Some("America/New_York"));
        assert_eq!(z("+351912345678").as_deref(), Some("Europe/Lisbon"));
        assert_eq!(z("+34612345678").as_deref(), Some("Europe/Madrid"));
        assert_eq!(z("+79161234567").as_deref(), Some("Europe/Moscow"));
        assert_eq!(z("+447700900123").as_deref(), Some("Europe/London"));
        assert_eq!(z("+33612345678").as_deref(), Some("Europe/Paris"));
        assert_eq!(z("+819012345678").as_deref(), Some("Asia/Tokyo"));
        assert_eq!(z("nope"), None);
    }

    #[test]
    fn the_contact_zone_wins_then_the_number_then_the_fallback() {
        assert_eq!(recipient_zone(Some("Asia/Tokyo"), "+14155550100", Tz::UTC).name(), "Asia/Tokyo");
        assert_eq!(recipient_zone(None, "+14155550100", Tz::UTC).name(), "America/Los_Angeles");
        assert_eq!(recipient_zone(None, "+999999999", Tz::Europe__Paris).name(), "Europe/Paris");
    }
}
