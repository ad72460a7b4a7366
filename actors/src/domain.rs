//! Validated domain values: once built, they are known good, so nothing downstream re-checks.

use std::fmt;

/// An E.164 number: `+` then 10 to 15 digits, nothing else (spec "Limits" rule 6).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PhoneNumber(String);

impl PhoneNumber {
    /// Parses strictly: no spaces, dashes or brackets are forgiven.
    pub fn parse(s: &str) -> Option<Self> {
        let digits = s.strip_prefix('+')?;
        ((10..=15).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| Self(s.to_owned()))
    }

    /// The number as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PhoneNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What an inbound text asks for (DESIGN "Opt-out").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyword {
    /// STOP and its synonyms.
    OptOut,
    /// START and its synonyms.
    OptIn,
}

impl Keyword {
    /// Classifies a whole inbound body (trimmed, any case); other texts are plain messages.
    pub fn of(body: &str) -> Option<Self> {
        let b = body.trim().to_ascii_uppercase();
        match b.as_str() {
            "STOP" | "STOPALL" | "UNSUBSCRIBE" | "CANCEL" | "END" | "QUIT" | "REVOKE" | "OPTOUT" => {
                Some(Keyword::OptOut)
            }
            "START" | "UNSTOP" | "YES" => Some(Keyword::OptIn),
            _ => None,
        }
    }
}

/// Test-key recipients with fixed outcomes, so integrators can exercise their failure paths.
pub mod magic {
    /// The `from` of test messages (no phone is involved).
    pub const TEST_SENDER: &str = "+15005550000";
    /// Fails: the carrier rejected the message.
    pub const REJECTED: &str = "+15005550001";
    /// Fails: the number cannot receive texts.
    pub const UNREACHABLE: &str = "+15005550002";
    /// Delivered over SMS even when iMessage was asked for.
    pub const SMS_ONLY: &str = "+15005550003";

    /// `Some(failure_reason)` when a test message to `to` must fail.
    pub fn failure(to: &str) -> Option<&'static str> {
        match to {
            REJECTED => Some("Carrier rejected the message (test number +15005550001)."),
            UNREACHABLE => Some("The number cannot receive text messages (test number +15005550002)."),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e164_is_plus_and_10_to_15_digits() {
        for ok in ["+1234567890", "+123456789012345", "+14155550100"] {
            assert!(PhoneNumber::parse(ok).is_some(), "{ok}");
        }
        for bad in [
            "1234567890",
            "+123456789",
            "+1234567890123456",
            "+1 415 555 0100",
            "+1415555010a",
            "",
            "+",
            "++14155550100",
            "+1415-5550100",
        ] {
            assert!(PhoneNumber::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn keywords_are_trimmed_and_case_blind() {
        assert_eq!(Keyword::of("  stop "), Some(Keyword::OptOut));
        assert_eq!(Keyword::of("Unsubscribe"), Some(Keyword::OptOut));
        assert_eq!(Keyword::of("start"), Some(Keyword::OptIn));
        assert_eq!(Keyword::of("yes"), Some(Keyword::OptIn));
        assert_eq!(Keyword::of("stop it"), None);
        assert_eq!(Keyword::of("hello"), None);
    }
}
