//! Campaigns: one text to many recipients.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

use super::Channel;

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
    /// `auto`, `imessage` or `sms`.
    pub channel: Channel,
    /// The tenant's own values, given to every message of the campaign.
    #[serde(default)]
    pub metadata: std::collections::BTreeMap<String, String>,
    /// Each message's `valid_for`, in seconds from its own acceptance.
    #[serde(default)]
    pub valid_for: Option<u32>,
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
    /// Attachments every message of the campaign carries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub media: Vec<super::MediaRef>,
}
