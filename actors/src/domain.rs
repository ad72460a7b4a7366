//! Validated domain values: once built, they are known good, so nothing downstream re-checks.

use std::borrow::Cow;
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
    /// HELP or INFO: the tenant's help reply, if it has one.
    Help,
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
            "HELP" | "INFO" => Some(Keyword::Help),
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
        assert_eq!(Keyword::of(" Info\n"), Some(Keyword::Help));
        assert_eq!(Keyword::of("help me"), None);
        assert_eq!(Keyword::of("stop it"), None);
        assert_eq!(Keyword::of("hello"), None);
    }
}

/// A template body parsed once: literal text and `{{ variable }}` placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateBody {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Var(String),
}

impl TemplateBody {
    /// Parses `Hello {{ name }}!`. A variable name is a letter or `_` then letters, digits, `_`,
    /// `.` or `-`. An unclosed `{{`, a stray `}}`, an empty or malformed placeholder is an error
    /// (the text says where); single braces are plain text.
    pub fn parse(src: &str) -> Result<Self, String> {
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = src;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("{{") {
                let end = after
                    .find("}}")
                    .ok_or_else(|| format!("unclosed '{{{{' at character {}", pos(src, rest)))?;
                let name = after[..end].trim();
                let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
                if !valid {
                    return Err(format!(
                        "malformed placeholder '{{{{{}}}}}' at character {}: a name is a letter or _ then letters, digits, _ . -",
                        &after[..end],
                        pos(src, rest)
                    ));
                }
                if !text.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut text)));
                }
                parts.push(Part::Var(name.to_owned()));
                rest = &after[end + 2..];
            } else if rest.starts_with("}}") {
                return Err(format!("'}}}}' without '{{{{' at character {}", pos(src, rest)));
            } else {
                let c = rest.chars().next().expect("not empty");
                text.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        if !text.is_empty() {
            parts.push(Part::Text(text));
        }
        Ok(Self { parts })
    }

    /// The distinct variables, in order of first use.
    pub fn variables(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for p in &self.parts {
            if let Part::Var(n) = p {
                if !v.contains(n) {
                    v.push(n.clone());
                }
            }
        }
        v
    }

    /// Fills the placeholders, stopping as soon as the text passes `limit` characters: a short
    /// template with a large value repeated could otherwise build a string of gigabytes.
    pub fn render<'v>(
        &self,
        limit: usize,
        value: impl Fn(&str) -> Option<Cow<'v, str>>,
    ) -> Result<String, RenderError> {
        let mut missing: Vec<String> = Vec::new();
        for n in self.parts.iter().filter_map(|p| match p {
            Part::Var(n) => Some(n),
            Part::Text(_) => None,
        }) {
            if value(n).is_none() && !missing.contains(n) {
                missing.push(n.clone());
            }
        }
        if !missing.is_empty() {
            return Err(RenderError::Missing(missing));
        }
        let mut out = String::new();
        let mut chars = 0;
        for p in &self.parts {
            let piece = match p {
                Part::Text(t) => Cow::Borrowed(t.as_str()),
                Part::Var(n) => value(n).unwrap_or_default(),
            };
            // Counted only up to the limit: a huge value is not walked whole either.
            chars += piece.chars().take(limit + 1 - chars).count();
            if chars > limit {
                return Err(RenderError::TooLong(limit));
            }
            out.push_str(&piece);
        }
        Ok(out)
    }
}

/// Why a template did not render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// These variables have no value (each once, in order of first use).
    Missing(Vec<String>),
    /// The text passed this many characters; rendering stopped there.
    TooLong(usize),
}

fn pos(src: &str, rest: &str) -> usize {
    src[..src.len() - rest.len()].chars().count() + 1
}

#[cfg(test)]
mod template_tests {
    use super::*;

    #[test]
    fn placeholders_are_parsed_once_and_rendered() {
        let t = TemplateBody::parse("Hi {{ name }}, your code is {{code}}. Bye {{name}} {x}").unwrap();
        assert_eq!(t.variables(), ["name", "code"]);
        let out = t.render(100, |n| Some(format!("<{n}>").into())).unwrap();
        assert_eq!(out, "Hi <name>, your code is <code>. Bye <name> {x}");
        let missing = t.render(100, |n| (n == "name").then(|| "A".into()));
        assert_eq!(missing, Err(RenderError::Missing(vec!["code".to_string()])));
    }

    #[test]
    fn rendering_stops_at_the_limit_without_building_the_whole_text() {
        let t = TemplateBody::parse(&"{{x}}".repeat(2_000)).unwrap();
        let huge = "y".repeat(500_000);
        assert_eq!(t.render(10_000, |_| Some(huge.as_str().into())), Err(RenderError::TooLong(10_000)));
        // Exactly at the limit is fine; one character more is not.
        let t = TemplateBody::parse("ab{{x}}").unwrap();
        assert_eq!(t.render(5, |_| Some("cde".into())).unwrap(), "abcde");
        assert_eq!(t.render(5, |_| Some("cdef".into())), Err(RenderError::TooLong(5)));
        assert_eq!(t.render(5, |_| Some("çdé".into())).unwrap(), "abçdé", "characters, not bytes");
    }

    #[test]
    fn malformed_braces_are_refused() {
        for bad in ["Hi {{ name", "Hi }} there", "{{ }}", "{{ 1abc }}", "{{ a b }}", "{{ {{a}} }}"] {
            assert!(TemplateBody::parse(bad).is_err(), "{bad}");
        }
        assert!(TemplateBody::parse("no placeholders { at all }").unwrap().variables().is_empty());
    }
}
