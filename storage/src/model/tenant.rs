//! Tenants, their plans and limits, and their API keys.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

/// A tenant's plan (spec "Limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    /// 14 days, then 403 `TRIAL_EXPIRED` unless a subscription is active.
    #[default]
    Trial,
    /// 49 USD.
    Starter,
    /// 249 USD.
    Growth,
    /// 749 USD, no rate or call ceiling.
    Scale,
}

impl Plan {
    /// Default and ceiling of a key's calls per minute; `None` is unlimited.
    pub fn rate_ceiling(self) -> Option<u32> {
        match self {
            Plan::Trial | Plan::Starter => Some(50),
            Plan::Growth => Some(200),
            Plan::Scale => None,
        }
    }

    /// API calls per UTC month; `None` is unlimited.
    pub fn monthly_calls(self) -> Option<u64> {
        match self {
            Plan::Trial | Plan::Starter => Some(50_000),
            Plan::Growth => Some(200_000),
            Plan::Scale => None,
        }
    }

    /// First-time recipients per UTC day (DESIGN "Plans").
    pub fn new_contacts_per_day(self) -> u32 {
        match self {
            Plan::Trial => 20,
            Plan::Starter => 50,
            Plan::Growth => 200,
            Plan::Scale => 1000,
        }
    }

    /// Bytes of media the tenant may hold (DESIGN "Attachments"); `None` is unlimited.
    pub fn media_bytes(self) -> Option<u64> {
        const MIB: u64 = 1024 * 1024;
        match self {
            Plan::Trial => Some(100 * MIB),
            Plan::Starter => Some(1024 * MIB),
            Plan::Growth => Some(10 * 1024 * MIB),
            Plan::Scale => None,
        }
    }
}

/// Whether the operator lets the tenant in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum TenantStatus {
    /// Normal.
    #[default]
    Active,
    /// Every tenant call answers 403 `TENANT_SUSPENDED`.
    Suspended,
}

/// A tenant's quiet-hours window, in the recipient's local time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuietHours {
    /// Off means messages go out at any hour.
    pub enabled: bool,
    /// `HH:MM`, local; quiet from here...
    pub start: String,
    /// ...until here (the spec's 08:00).
    pub end: String,
    /// IANA zone to use when the recipient's own cannot be told; `None` means UTC.
    pub timezone: Option<String>,
}

impl Default for QuietHours {
    fn default() -> Self {
        Self { enabled: true, start: "21:00".into(), end: "08:00".into(), timezone: None }
    }
}

/// What the node texts back to a recipient's keywords on the tenant's behalf; `None` sends
/// nothing. Stored with the tenant; a tenant written before they existed has the defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replies {
    /// After a STOP that opted the sender out.
    pub opt_out_reply: Option<String>,
    /// After a START that opted the sender back in.
    pub opt_in_reply: Option<String>,
    /// After HELP or INFO.
    pub help_reply: Option<String>,
}

impl Default for Replies {
    fn default() -> Self {
        Self {
            opt_out_reply: Some(
                "You are unsubscribed and will get no more messages. Reply START to resubscribe.".into(),
            ),
            opt_in_reply: Some("You are subscribed again. Reply STOP to unsubscribe.".into()),
            help_reply: None,
        }
    }
}

/// A tenant as stored. Limits hold the operator's overrides; `None` means the plan's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TenantRecord {
    /// Also the key prefix of every record the tenant owns.
    pub id: Ulid,
    /// Operator's label.
    pub name: String,
    /// Current plan.
    pub plan: Plan,
    /// Active or suspended.
    pub status: TenantStatus,
    /// A paid subscription keeps a trial tenant in after `trial_ends_at`.
    pub subscription_active: bool,
    /// Creation + 14 days unless the operator moves it.
    #[serde(with = "crate::ts")]
    pub trial_ends_at: DateTime<Utc>,
    /// Override of the plan's new-contact daily limit.
    pub new_contact_daily_limit: Option<u32>,
    /// Override of the plan's monthly call limit.
    pub monthly_call_limit: Option<u64>,
    /// Quiet-hours window.
    pub quiet_hours: QuietHours,
    /// Keyword replies (the tenant's settings).
    #[serde(default)]
    pub replies: Replies,
    /// Override of the plan's bound on stored media, in bytes.
    #[serde(default)]
    pub media_bytes_limit: Option<u64>,
    /// When the operator created it.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}

impl TenantRecord {
    /// The monthly call limit in force; `None` is unlimited.
    pub fn effective_monthly_calls(&self) -> Option<u64> {
        self.monthly_call_limit.or(self.plan.monthly_calls())
    }

    /// The bound on stored media in force, in bytes; `None` is unlimited.
    pub fn effective_media_bytes(&self) -> Option<u64> {
        self.media_bytes_limit.or(self.plan.media_bytes())
    }

    /// The new-contact daily limit in force.
    pub fn effective_new_contacts(&self) -> u32 {
        self.new_contact_daily_limit.unwrap_or(self.plan.new_contacts_per_day())
    }

    /// True once a trial has ended without a subscription.
    pub fn trial_expired(&self, now: DateTime<Utc>) -> bool {
        self.plan == Plan::Trial && !self.subscription_active && now >= self.trial_ends_at
    }
}

/// Which prefix a key carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    /// `svc_live_`: delivers to real phones.
    Live,
    /// `svc_test_`: validates, never sends, never uses quota.
    Test,
}

impl Environment {
    /// The key prefix of this environment.
    pub fn prefix(self) -> &'static str {
        match self {
            Environment::Live => "svc_live_",
            Environment::Test => "svc_test_",
        }
    }
}

/// One thing a key may do: `send` (sends, cancels, campaign launch and cancel, detection, media
/// uploads), `read` (every `GET`), `manage` (everything else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Send and cancel.
    Send,
    /// Read.
    Read,
    /// Change the account's records.
    Manage,
}

impl Scope {
    /// Every scope, in the order the API lists them.
    pub const ALL: [Scope; 3] = [Scope::Send, Scope::Read, Scope::Manage];

    /// The API's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Send => "send",
            Scope::Read => "read",
            Scope::Manage => "manage",
        }
    }

    /// The scope of an API name.
    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|c| c.as_str() == s)
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of scopes, stored and shown as a list of names (`["send", "read"]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scopes(u8);

impl Scopes {
    /// All three: what keys made before scopes existed, the operator and identity tokens have.
    pub const ALL: Scopes = Scopes(0b111);

    /// The set of `list`.
    pub fn of(list: impl IntoIterator<Item = Scope>) -> Scopes {
        Scopes(list.into_iter().fold(0, |b, s| b | s.bit()))
    }

    /// Whether `s` is in the set.
    pub fn has(self, s: Scope) -> bool {
        self.0 & s.bit() != 0
    }

    /// Whether every scope of `other` is in this set.
    pub fn covers(self, other: Scopes) -> bool {
        other.0 & !self.0 == 0
    }

    /// Whether it is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Its scopes, in [`Scope::ALL`]'s order.
    pub fn list(self) -> Vec<Scope> {
        Scope::ALL.into_iter().filter(|s| self.has(*s)).collect()
    }
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes::ALL
    }
}

impl Serialize for Scopes {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.list().into_iter().map(Scope::as_str))
    }
}

impl<'de> Deserialize<'de> for Scopes {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let names = Vec::<String>::deserialize(de)?;
        let mut out = Vec::new();
        for n in names {
            out.push(
                Scope::parse(&n).ok_or_else(|| serde::de::Error::custom(format!("unknown scope {n:?}")))?,
            );
        }
        Ok(Scopes::of(out))
    }
}

/// An API key as stored: never the key itself, only its SHA-256.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiKeyRecord {
    /// ULID, shown to the tenant.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Label.
    pub name: String,
    /// Live or test.
    pub environment: Environment,
    /// SHA-256 of the full key, hex.
    pub hash: String,
    /// `...` and the key's last four characters.
    pub hint: String,
    /// Custom calls per minute; `None` follows the plan.
    pub rate_limit: Option<u32>,
    /// What it may do; all three for a key made before scopes existed.
    #[serde(default)]
    pub scopes: Scopes,
    /// False while the operator has deactivated it (403 `KEY_INACTIVE`).
    pub active: bool,
    /// Set once, by revocation; a revoked key never authenticates again.
    #[serde(with = "crate::ts::option")]
    pub revoked_at: Option<DateTime<Utc>>,
    /// Last successful authentication, persisted lazily.
    #[serde(with = "crate::ts::option")]
    pub last_used_at: Option<DateTime<Utc>>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}

impl ApiKeyRecord {
    /// Calls per minute in force under `plan`; `None` is unlimited.
    pub fn effective_rate_limit(&self, plan: Plan) -> Option<u32> {
        match (self.rate_limit, plan.rate_ceiling()) {
            (Some(custom), Some(ceiling)) => Some(custom.min(ceiling)),
            (Some(custom), None) => Some(custom),
            (None, ceiling) => ceiling,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_rate_is_capped_by_a_lower_plan() {
        let mut k = ApiKeyRecord {
            id: Ulid::nil(),
            tenant_id: Ulid::nil(),
            name: "k".into(),
            environment: Environment::Live,
            hash: "ab".repeat(32),
            hint: "...abcd".into(),
            rate_limit: Some(150),
            scopes: Default::default(),
            active: true,
            revoked_at: None,
            last_used_at: None,
            created_at: Utc::now(),
        };
        assert_eq!(k.effective_rate_limit(Plan::Growth), Some(150));
        assert_eq!(k.effective_rate_limit(Plan::Starter), Some(50));
        assert_eq!(k.effective_rate_limit(Plan::Scale), Some(150));
        k.rate_limit = None;
        assert_eq!(k.effective_rate_limit(Plan::Scale), None);
        assert_eq!(k.effective_rate_limit(Plan::Growth), Some(200));
    }
}
