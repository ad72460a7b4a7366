//! The persisted records. They are the engine's state, not the API's answers: the HTTP layer maps
//! them to response bodies, so a field can be renamed on the wire without touching what is on disk.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

/// A new id: a ULID, strictly increasing within this process, so ids sort in creation order
/// (plain ULIDs made in the same millisecond would sort at random).
pub fn new_id() -> Ulid {
    use std::sync::{Mutex, OnceLock};
    static GEN: OnceLock<Mutex<ulid::Generator>> = OnceLock::new();
    let mut g =
        GEN.get_or_init(|| Mutex::new(ulid::Generator::new())).lock().unwrap_or_else(|e| e.into_inner());
    match g.generate() {
        Ok(id) => id,
        Err(overflow) => overflow.commit_overflow_random(),
    }
}

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
    /// When the operator created it.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}

impl TenantRecord {
    /// The monthly call limit in force; `None` is unlimited.
    pub fn effective_monthly_calls(&self) -> Option<u64> {
        self.monthly_call_limit.or(self.plan.monthly_calls())
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

/// How a phone is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PhoneDriver {
    /// A device running the agent, pulling jobs over `/phone/v1/`.
    Agent,
    /// In-process simulation: delivers after `latency_ms`, fails at `failure_rate`.
    Sim,
}

/// Behaviour of a simulated phone.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SimSettings {
    /// Time from hand-over to delivery.
    pub latency_ms: u64,
    /// Share of messages that fail, 0.0–1.0.
    pub failure_rate: f64,
}

impl Default for SimSettings {
    fn default() -> Self {
        Self { latency_ms: 50, failure_rate: 0.0 }
    }
}

/// A tenant's phone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhoneRecord {
    /// Phone id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// E.164 number: the `from` of what it sends.
    pub number: String,
    /// Messages it may take per UTC day.
    pub daily_limit: u32,
    /// Agent or sim.
    pub driver: PhoneDriver,
    /// Sim behaviour (ignored for agents).
    pub sim: SimSettings,
    /// Off: never chosen.
    pub enabled: bool,
    /// Sim phones only: the operator's online switch. Agents are online while they poll.
    pub sim_online: bool,
    /// SHA-256 (hex) of the agent token.
    pub agent_token_hash: Option<String>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Tenant to recipient.
    Outbound,
    /// Recipient to tenant.
    Inbound,
}

/// Where a message stands (DESIGN "Message statuses").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MessageStatus {
    /// Accepted, waiting for its phone.
    Queued,
    /// Leased to a phone.
    Sending,
    /// The phone sent it.
    Sent,
    /// The recipient got it.
    Delivered,
    /// It will not arrive; see `failure_reason`.
    Failed,
    /// Cancelled before a phone took it.
    Cancelled,
    /// An inbound text.
    Received,
}

impl MessageStatus {
    /// Still waiting for or held by a phone.
    pub fn is_pending(self) -> bool {
        matches!(self, MessageStatus::Queued | MessageStatus::Sending)
    }
}

/// Requested or used channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// iMessage when the number has it, else SMS.
    Auto,
    /// iMessage.
    Imessage,
    /// SMS.
    Sms,
}

/// A phone's hold on a message: if not answered by `until`, it goes back to the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// The job id the agent saw.
    pub job_id: Ulid,
    /// Expiry.
    #[serde(with = "crate::ts")]
    pub until: DateTime<Utc>,
}

/// A message, outbound or inbound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageRecord {
    /// Message id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Outbound or inbound.
    pub direction: Direction,
    /// Current status.
    pub status: MessageStatus,
    /// Recipient (outbound) or the tenant's phone (inbound).
    pub to: String,
    /// The tenant's phone (outbound) or the sender (inbound).
    pub from: Option<String>,
    /// The phone that holds or handled it.
    pub phone_id: Option<Ulid>,
    /// Requested channel.
    pub channel: Channel,
    /// Channel the phone used.
    pub channel_used: Option<Channel>,
    /// Text.
    pub body: String,
    /// Template used, if any.
    pub template: Option<String>,
    /// Campaign, if any.
    pub campaign_id: Option<Ulid>,
    /// Sent with a test key: never reaches a phone.
    pub test: bool,
    /// Acceptance time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
    /// Held until then.
    #[serde(with = "crate::ts::option")]
    pub scheduled_at: Option<DateTime<Utc>>,
    /// When the phone sent it.
    #[serde(with = "crate::ts::option")]
    pub sent_at: Option<DateTime<Utc>>,
    /// When it was delivered.
    #[serde(with = "crate::ts::option")]
    pub delivered_at: Option<DateTime<Utc>>,
    /// When it failed.
    #[serde(with = "crate::ts::option")]
    pub failed_at: Option<DateTime<Utc>>,
    /// Carrier-level detail of a failure.
    pub failure_reason: Option<String>,
    /// Stable code of a failure.
    pub error_code: Option<String>,
    /// The agent's lease while `sending`.
    pub lease: Option<Lease>,
    /// Held by the scheduler until `scheduled_at` (quiet hours or `send_at`); no phone has it yet.
    #[serde(default)]
    pub held: bool,
    /// Set when quiet hours moved it: `QUIET_HOURS`.
    #[serde(default)]
    pub notice: Option<String>,
}

/// What the tenant knows of a number it has messaged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecipientRecord {
    /// First message to it.
    #[serde(with = "crate::ts")]
    pub first_at: DateTime<Utc>,
    /// Phone that served it last (sticky sender).
    pub last_phone: Option<Ulid>,
}

/// The first answer given to an `Idempotency-Key`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdempotencyRecord {
    /// SHA-256 (hex) of the request it answered.
    pub fingerprint: String,
    /// The message that request created.
    pub message_id: Ulid,
    /// When; keys are honoured for 24 hours.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}

/// A tenant's webhook endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookRecord {
    /// Webhook id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Absolute http(s) URL.
    pub url: String,
    /// Subscribed events, e.g. `message.delivered`.
    pub events: Vec<String>,
    /// Signing secret. Kept in clear: signing needs it (unlike API keys, which are only compared).
    pub secret: String,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeliveryState {
    /// Attempts remain.
    Pending,
    /// A 2xx ended it.
    Succeeded,
    /// Four attempts failed.
    Failed,
}

/// One HTTP attempt of a delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// When it started.
    #[serde(with = "crate::ts")]
    pub at: DateTime<Utc>,
    /// Which retry cycle (0, then one more per manual retry).
    pub cycle: u32,
    /// HTTP status, when one came back.
    pub status_code: Option<u16>,
    /// Why there was no status: `timeout`, `connect`, `refused_private_address`, ...
    pub error: Option<String>,
    /// Milliseconds to the answer or the error.
    pub duration_ms: u64,
    /// The first bytes of the answer.
    pub response_snippet: Option<String>,
}

/// One event to one webhook, with every attempt made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryRecord {
    /// Delivery id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Endpoint.
    pub webhook_id: Ulid,
    /// The event, shared by every webhook that gets it and stable across retries.
    pub event_id: Ulid,
    /// `message.delivered`, `message.failed` or `message.received`.
    pub event: String,
    /// The exact bytes sent (and signed).
    pub payload: String,
    /// Pending, succeeded or failed.
    pub state: DeliveryState,
    /// Current retry cycle.
    pub cycle: u32,
    /// Every attempt, oldest first.
    pub attempts: Vec<Attempt>,
    /// When the next attempt is due (pending only).
    #[serde(with = "crate::ts::option")]
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// Creation time (the event's).
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}

/// A message template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateRecord {
    /// Template id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Unique in the tenant.
    pub name: String,
    /// Text with `{{ variable }}` placeholders (validated at write).
    pub body: String,
    /// Its variables, in order of first use.
    pub variables: Vec<String>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::ts")]
    pub updated_at: DateTime<Utc>,
}

/// A contact: a recipient the tenant knows by name, zone and attributes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactRecord {
    /// Contact id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// E.164, unique in the tenant.
    pub phone: String,
    /// Display name.
    pub name: Option<String>,
    /// IANA zone (quiet hours use it).
    pub timezone: Option<String>,
    /// Free string attributes; they also fill template variables.
    pub attributes: std::collections::BTreeMap<String, String>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::ts")]
    pub updated_at: DateTime<Utc>,
}

/// What a phone said about a number's iMessage support (cached 7 days).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DetectionRecord {
    /// Has iMessage.
    pub imessage: bool,
    /// When it was checked.
    #[serde(with = "crate::ts")]
    pub checked_at: DateTime<Utc>,
}

/// Where a campaign stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CampaignStatus {
    /// Created, not launched.
    Draft,
    /// Recipients are being sent.
    Running,
    /// Every recipient was sent or skipped.
    Completed,
    /// Stopped by the tenant.
    Cancelled,
}

/// Who a campaign goes to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// These contacts.
    ContactIds(Vec<Ulid>),
    /// These numbers.
    Phones(Vec<String>),
    /// Every contact at launch.
    AllContacts,
}

/// A campaign: one text (or template) to many recipients, each sent as a single send would be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignRecord {
    /// Campaign id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Label.
    pub name: String,
    /// Draft, running, completed or cancelled.
    pub status: CampaignStatus,
    /// Text (or `template`).
    pub body: Option<String>,
    /// Template name or id (or `body`).
    pub template: Option<String>,
    /// Shared template values.
    pub data: serde_json::Map<String, serde_json::Value>,
    /// `auto` or `imessage`.
    pub channel: Channel,
    /// Sent with a test key.
    pub test: bool,
    /// Recipients.
    pub audience: Audience,
    /// Recipients resolved at launch.
    pub total: u64,
    /// Recipients handled so far (sent or skipped); a restart resumes here.
    pub processed: u64,
    /// Recipients skipped, by the code that refused them.
    pub skipped: std::collections::BTreeMap<String, u64>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
    /// Launch time.
    #[serde(with = "crate::ts::option")]
    pub launched_at: Option<DateTime<Utc>>,
    /// When the last recipient was handled, or it was cancelled.
    #[serde(with = "crate::ts::option")]
    pub finished_at: Option<DateTime<Utc>>,
}
