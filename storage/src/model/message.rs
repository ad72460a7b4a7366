//! Messages and what the send path keeps beside them: recipients and idempotency keys.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

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
    /// The recipient read it (a read receipt); after `delivered`. Last in the enum: the binary
    /// codec stores a status by its place.
    Read,
}

impl MessageStatus {
    /// Still waiting for or held by a phone.
    pub fn is_pending(self) -> bool {
        matches!(self, MessageStatus::Queued | MessageStatus::Sending)
    }

    /// Nothing more will happen to it: retention may delete it once it is old enough.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            MessageStatus::Delivered
                | MessageStatus::Read
                | MessageStatus::Failed
                | MessageStatus::Cancelled
                | MessageStatus::Received
        )
    }

    /// The API's name of the status.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageStatus::Queued => "queued",
            MessageStatus::Sending => "sending",
            MessageStatus::Sent => "sent",
            MessageStatus::Delivered => "delivered",
            MessageStatus::Failed => "failed",
            MessageStatus::Cancelled => "cancelled",
            MessageStatus::Received => "received",
            MessageStatus::Read => "read",
        }
    }

    /// Every status, in the order of a message's life.
    pub const ALL: [MessageStatus; 8] = [
        MessageStatus::Queued,
        MessageStatus::Sending,
        MessageStatus::Sent,
        MessageStatus::Delivered,
        MessageStatus::Read,
        MessageStatus::Failed,
        MessageStatus::Cancelled,
        MessageStatus::Received,
    ];
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
    /// When it was read (a read receipt).
    #[serde(default, with = "crate::ts::option")]
    pub read_at: Option<DateTime<Utc>>,
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
    /// The tenant's counters as this message's accept left them (name, value). Counters are
    /// written back once a second; a restart takes the highest tallies of the messages made
    /// since, so a crash forgets no counted message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tally: Vec<(String, u64)>,
    /// Sent with `from`: this phone only, never moved to another.
    #[serde(default)]
    pub pinned: bool,
    /// The tenant's own string values, echoed in the record and every event about it.
    #[serde(default)]
    pub metadata: std::collections::BTreeMap<String, String>,
    /// Sent with `valid_for`: a message no phone has taken by then fails `EXPIRED`.
    #[serde(default, with = "crate::ts::option")]
    pub expires_at: Option<DateTime<Utc>>,
    /// The phones that could not send it (phone-scoped failures), in order: failover skips them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_phones: Vec<Ulid>,
    /// The inbound message this one answers (an opt-out, opt-in or HELP reply); `None` otherwise.
    #[serde(default)]
    pub reply_to: Option<Ulid>,
    /// Its attachments, in the order given; a media-only message's `body` is empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub media: Vec<MediaRef>,
}

/// An attachment as a message holds it: enough of its media record to show, link and hand to a
/// phone without reading the record again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MediaRef {
    /// Media id.
    pub id: Ulid,
    /// Its type.
    pub content_type: String,
    /// Bytes.
    pub size: u64,
    /// SHA-256, lowercase hex: what an agent checks its download against.
    pub sha256: String,
    /// The name given at upload.
    pub filename: Option<String>,
}

impl From<&super::MediaRecord> for MediaRef {
    fn from(m: &super::MediaRecord) -> Self {
        Self {
            id: m.id,
            content_type: m.content_type.clone(),
            size: m.size,
            sha256: m.sha256.clone(),
            filename: m.filename.clone(),
        }
    }
}

impl MessageRecord {
    /// Its text as the API shows it: `None` for a media-only message (kept as an empty body).
    pub fn text(&self) -> Option<&str> {
        (!self.body.is_empty() || self.media.is_empty()).then_some(self.body.as_str())
    }

    /// A message nothing has happened to yet: the fields every message sets, the rest empty. Build
    /// the others with struct update syntax. `id` comes from [`crate::Store::new_id`].
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: Ulid,
        tenant_id: Ulid,
        direction: Direction,
        status: MessageStatus,
        to: String,
        body: String,
        channel: Channel,
        created_at: DateTime<Utc>,
    ) -> Self {
        Self {
            id,
            tenant_id,
            direction,
            status,
            to,
            from: None,
            phone_id: None,
            channel,
            channel_used: None,
            body,
            template: None,
            campaign_id: None,
            test: false,
            created_at,
            scheduled_at: None,
            sent_at: None,
            delivered_at: None,
            read_at: None,
            failed_at: None,
            failure_reason: None,
            error_code: None,
            lease: None,
            held: false,
            notice: None,
            tally: Vec::new(),
            pinned: false,
            metadata: Default::default(),
            expires_at: None,
            failed_phones: Vec::new(),
            reply_to: None,
            media: Vec::new(),
        }
    }
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
